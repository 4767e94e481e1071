import { z } from 'zod';

/** The id a caller gives a long operation, so that it can cancel it. */
export const operationIdSchema = z.string().min(1).max(100);
