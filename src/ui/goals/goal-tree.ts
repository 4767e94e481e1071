import type { GoalView } from '#core/api.ts';

/** A goal with its sub-goals, as the list nests them. */
export type GoalNode = { goal: GoalView; children: GoalNode[] };

/**
 * Nests goals under their parents, keeping the given order among siblings. A goal whose parent
 * is not in the list (or whose parents loop back to it) is shown at the top level, never lost.
 */
export function goalTree(goals: readonly GoalView[]): GoalNode[] {
  const nodes = new Map(goals.map((goal) => [goal.id, { goal, children: [] as GoalNode[] }]));
  const byId = new Map(goals.map((goal) => [goal.id, goal]));
  const roots: GoalNode[] = [];
  for (const goal of goals) {
    const node = nodes.get(goal.id)!;
    const parent = goal.parentId === undefined ? undefined : nodes.get(goal.parentId);
    if (parent && !isOwnAncestor(goal, byId)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

function isOwnAncestor(goal: GoalView, byId: ReadonlyMap<number, GoalView>): boolean {
  const visited = new Set<number>();
  let parentId = goal.parentId;
  while (parentId !== undefined && !visited.has(parentId)) {
    if (parentId === goal.id) return true;
    visited.add(parentId);
    parentId = byId.get(parentId)?.parentId;
  }
  return false;
}
