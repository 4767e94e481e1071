import { describe, expect, it } from 'vitest';
import type { GoalView } from '#core/api.ts';
import { goalTree } from './goal-tree.ts';

function goal(id: number, parentId?: number): GoalView {
  return {
    id,
    description: `goal ${id}`,
    successCriteria: '',
    priority: 128,
    status: 'active',
    cyclesWorked: 0,
    findings: [],
    findingsTotal: 0,
    ...(parentId !== undefined ? { parentId } : {}),
  };
}

const ids = (nodes: ReturnType<typeof goalTree>): unknown =>
  nodes.map((node) => (node.children.length > 0 ? [node.goal.id, ids(node.children)] : node.goal.id));

describe('goalTree', () => {
  it('shows sub-goals under their parent, in list order', () => {
    expect(ids(goalTree([goal(1), goal(2), goal(3, 1), goal(4, 1), goal(5, 3)]))).toEqual([[1, [[3, [5]], 4]], 2]);
  });

  it('shows a sub-goal whose parent is not listed at the top level', () => {
    expect(ids(goalTree([goal(2, 9), goal(3)]))).toEqual([2, 3]);
  });

  it('never loses goals whose parents loop back to them', () => {
    const tree = goalTree([goal(1, 2), goal(2, 1), goal(3, 3)]);
    const count = (nodes: ReturnType<typeof goalTree>): number =>
      nodes.reduce((sum, node) => sum + 1 + count(node.children), 0);
    expect(count(tree)).toBe(3);
  });
});
