import type { GoalView } from '#core/api.ts';
import type { BadgeTone } from './badge-tone.ts';

/** A goal's status as its badge reads. */
export const GOAL_STATUS_LABELS = {
  active: 'Active',
  suspended: 'Suspended',
  waiting: 'Waiting for you',
  completed: 'Completed',
  failed: 'Failed',
  abandoned: 'Abandoned',
} as const satisfies Record<GoalView['status'], string>;

/** The lowest and highest priority a goal can have, and the one a new goal gets. */
export const PRIORITY_RANGE = { min: 0, max: 255, default: 128 } as const;

/** Whether a typed priority can be saved: a whole number from 0 to 255. */
export function isValidPriority(value: number | null | undefined): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= PRIORITY_RANGE.min && value <= PRIORITY_RANGE.max
  );
}

/** Whether the user can still change a goal's status (ended goals stay as they are; a waiting one can be cancelled). */
export function isOpenGoal(goal: Pick<GoalView, 'status'>): boolean {
  return goal.status === 'active' || goal.status === 'suspended' || goal.status === 'waiting';
}

/** The colour of a goal's status badge. */
export const GOAL_STATUS_TONES = {
  active: 'accent',
  suspended: 'neutral',
  waiting: 'accent',
  completed: 'success',
  failed: 'danger',
  abandoned: 'neutral',
} as const satisfies Record<GoalView['status'], BadgeTone>;
