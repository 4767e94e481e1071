/** A node as the edge geometry sees it: a box around a centre point. */
export type NodeBox = { x: number; y: number; halfWidth: number; halfHeight: number };

type Point = { x: number; y: number };

/** An SVG path between two nodes and the point where its label goes. */
export type EdgePath = { d: string; labelX: number; labelY: number };

/** Space left between a node's border and the ends of an edge, so the arrowhead stays visible. */
const GAP = 3;

/**
 * The path of an edge from one node's border to another's. A `bend` other than 0 curves it to
 * one side by that many pixels (to the left of the direction of travel), so the two arrows
 * between a pair of nodes that point opposite ways are drawn apart instead of on top of each other.
 * The label sits at `labelAt` of the way along (0 at `from`, 1 at `to`).
 */
export function edgePath(from: NodeBox, to: NodeBox, bend: number, labelAt = 0.5): EdgePath {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  const middle = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
  const control = length === 0 ? middle : { x: middle.x - (dy / length) * bend, y: middle.y + (dx / length) * bend };
  const start = borderPoint(from, control);
  const end = borderPoint(to, control);
  const label = pointOnCurve(start, control, end, labelAt);
  return {
    d: `M${round(start.x)} ${round(start.y)} Q${round(control.x)} ${round(control.y)} ${round(end.x)} ${round(end.y)}`,
    labelX: round(label.x),
    labelY: round(label.y),
  };
}

/** The point at `t` along a quadratic Bézier curve. */
function pointOnCurve(start: Point, control: Point, end: Point, t: number): Point {
  const [a, b, c] = [(1 - t) ** 2, 2 * (1 - t) * t, t ** 2];
  return { x: a * start.x + b * control.x + c * end.x, y: a * start.y + b * control.y + c * end.y };
}

/** Where the line from a box's centre towards a point leaves the box, plus the gap. */
function borderPoint(box: NodeBox, towards: Point): Point {
  const dx = towards.x - box.x;
  const dy = towards.y - box.y;
  const length = Math.hypot(dx, dy);
  if (length === 0) return { x: box.x, y: box.y };
  const scale = Math.min(
    dx === 0 ? Infinity : box.halfWidth / Math.abs(dx),
    dy === 0 ? Infinity : box.halfHeight / Math.abs(dy),
  );
  return { x: box.x + dx * scale + (dx / length) * GAP, y: box.y + dy * scale + (dy / length) * GAP };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
