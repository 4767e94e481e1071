import { z } from 'zod';

/** An expected outcome as a value: success with a value, or failure with problems that say where. */
export type Result<T, E = Problem[]> = { ok: true; value: T } | { ok: false; error: E };

/** One thing wrong with a user's input, located by line and column (1-based) and/or a key path. */
export const problemSchema = z.object({
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  path: z.string().optional(),
  message: z.string(),
});
export type Problem = z.infer<typeof problemSchema>;

/** Formats a problem as the user reads it: "line 3: ...", "line 1, column 40, at $.triples: ...", "at persona.name: ...". */
export function describeProblem(problem: Problem): string {
  const where = [
    problem.line !== undefined ? `line ${problem.line}` : '',
    problem.column !== undefined ? `column ${problem.column}` : '',
    problem.path ? `at ${problem.path}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return where ? `${where}: ${problem.message}` : problem.message;
}

/** Turns zod issues into located problems ("path.to.key: message"). */
export function problemsFromZod(error: z.ZodError): Problem[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : undefined,
    message: issue.message,
  }));
}
