import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3-force';

/**
 * Force-directed layout of a neighbourhood with d3-force. This module is loaded with a dynamic
 * import() by the graph view, so d3-force is not part of the script the app starts with.
 */

/** A node to place: the half size of its box. The first node is the centre. */
export type LayoutNode = { halfWidth: number; halfHeight: number };

/** The area to place the nodes in, in pixels (the SVG's viewBox). */
export type LayoutArea = { width: number; height: number };

/** A node's place: the centre of its box. */
export type Point = { x: number; y: number };

/** Enough ticks for d3-force's default cooling (alpha from 1 to 0.001) to run its course. */
export const LAYOUT_TICKS = 300;
/** Room kept between a node's box and the edge of the area. */
const MARGIN = 4;

type SimulationNode = SimulationNodeDatum & { halfWidth: number; halfHeight: number };

/** Ring radii, as fractions of the outer ring, for one, two and three rings of neighbours. */
const RING_RADII = [[1], [1, 0.6], [1, 0.72, 0.46]] as const;
/** The angle between consecutive seeds: each next node starts far from the one before. */
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/**
 * Places the first node in the middle of the area and the others around it on one or more
 * rings (more when one ring would be too crowded for their boxes), each linked to the first.
 * The simulation runs synchronously for a fixed number of ticks from positions seeded by node
 * index, and d3-force's own randomness is a fixed-seed generator, so the same nodes in the same
 * area always get the same places. Nodes are kept inside the area, so the drawing never needs
 * to be scaled down (which would shrink its text).
 *
 * @returns one point per node, in the order given.
 */
export function layoutNeighbourhood(nodes: readonly LayoutNode[], area: LayoutArea): Point[] {
  // The forces are isotropic, so in a wide (or tall) area they would leave a round cluster in
  // the middle. The simulation runs in a square, with the boxes squeezed alike, and its result
  // is stretched back: the rings become ellipses that use the whole area.
  const side = Math.min(area.width, area.height);
  const scale = { x: area.width / side, y: area.height / side };
  const square = { width: side, height: side };
  const middle = { x: side / 2, y: side / 2 };
  const neighbours = nodes.slice(1);
  const averageHalfWidth = average(neighbours.map((node) => node.halfWidth));
  const averageHalfHeight = average(neighbours.map((node) => node.halfHeight));
  const outerRadius = side / 2 - Math.max(averageHalfWidth / scale.x, averageHalfHeight / scale.y) - MARGIN;
  const radii = ringRadii(neighbours.length, outerRadius, scale, averageHalfWidth + averageHalfHeight);

  const simulationNodes: SimulationNode[] = nodes.map((node, index) => {
    const box = { halfWidth: node.halfWidth / scale.x, halfHeight: node.halfHeight / scale.y };
    if (index === 0) return { ...box, x: middle.x, y: middle.y, fx: middle.x, fy: middle.y };
    const angle = (index - 1) * GOLDEN_ANGLE - Math.PI / 2;
    const radius = radii[(index - 1) % radii.length] ?? outerRadius;
    return { ...box, x: middle.x + Math.cos(angle) * radius, y: middle.y + Math.sin(angle) * radius };
  });
  const links: SimulationLinkDatum<SimulationNode>[] = neighbours.map((_node, index) => ({
    source: 0,
    target: index + 1,
  }));

  const simulation = forceSimulation(simulationNodes)
    .force(
      'link',
      forceLink(links)
        .distance((_link, index) => radii[index % radii.length] ?? outerRadius)
        .strength(0.8),
    )
    .force('charge', forceManyBody().strength(-60))
    // Boxes are wider than tall: a circle a little smaller than the half width lets labels sit
    // above one another without pushing every node to the border.
    .force(
      'collide',
      forceCollide<SimulationNode>((node) => node.halfWidth * 0.8 + node.halfHeight * 0.4 + 3).iterations(2),
    )
    .force('bounds', () => {
      for (const node of simulationNodes) keepInside(node, square);
    })
    .stop();
  // No centring force: the symbol, fixed in the middle, holds the drawing in place (a centring
  // force would pull a single neighbour onto it).
  simulation.tick(LAYOUT_TICKS);
  separateBoxes(simulationNodes, square);

  return simulationNodes.map((node) => {
    keepInside(node, square);
    return { x: Math.round((node.x ?? middle.x) * scale.x), y: Math.round((node.y ?? middle.y) * scale.y) };
  });
}

/** Room kept between two boxes, so labels never touch. */
const GAP = 2;
/** How often the boxes are pushed apart: enough for a crowded neighbourhood to settle. */
const SEPARATION_PASSES = 60;

/**
 * Pushes overlapping boxes apart along the axis where they overlap least (the symbol in the
 * middle stays, its neighbour moves the whole way), keeping them inside the area. The collide
 * force works on circles, which let wide labels overlap around a busy symbol; this works on the boxes.
 */
function separateBoxes(nodes: SimulationNode[], area: LayoutArea): void {
  for (let pass = 0; pass < SEPARATION_PASSES; pass++) {
    let moved = false;
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        const [a, b] = [nodes[i]!, nodes[j]!];
        const dx = (b.x ?? 0) - (a.x ?? 0);
        const dy = (b.y ?? 0) - (a.y ?? 0);
        const overlapX = a.halfWidth + b.halfWidth + GAP - Math.abs(dx);
        const overlapY = a.halfHeight + b.halfHeight + GAP - Math.abs(dy);
        if (overlapX <= 0 || overlapY <= 0) continue;
        moved = true;
        const share = typeof a.fx === 'number' ? [0, 1] : typeof b.fx === 'number' ? [1, 0] : [0.5, 0.5];
        // Along the axis of least overlap; boxes on the same spot part by their index, the same every time.
        if (overlapX < overlapY) {
          const direction = dx === 0 ? (j % 2 === 0 ? 1 : -1) : Math.sign(dx);
          a.x = (a.x ?? 0) - direction * overlapX * share[0]!;
          b.x = (b.x ?? 0) + direction * overlapX * share[1]!;
        } else {
          const direction = dy === 0 ? (j % 2 === 0 ? 1 : -1) : Math.sign(dy);
          a.y = (a.y ?? 0) - direction * overlapY * share[0]!;
          b.y = (b.y ?? 0) + direction * overlapY * share[1]!;
        }
        keepInside(a, area);
        keepInside(b, area);
      }
    }
    if (!moved) return;
  }
}

/**
 * The radii of the rings the neighbours go on: as many rings as it takes for each ring's
 * ellipse (in the real area) to have room along it for its share of boxes.
 */
function ringRadii(
  count: number,
  outerRadius: number,
  scale: { x: number; y: number },
  averageHalfSize: number,
): number[] {
  const footprint = 1.2 * averageHalfSize + 6;
  for (const fractions of RING_RADII) {
    const room = fractions.reduce(
      (sum, fraction) =>
        sum + ellipsePerimeter(outerRadius * fraction * scale.x, outerRadius * fraction * scale.y) / footprint,
      0,
    );
    if (count <= room) return fractions.map((fraction) => outerRadius * fraction);
  }
  return RING_RADII[RING_RADII.length - 1]!.map((fraction) => outerRadius * fraction);
}

/** Ramanujan's approximation. */
function ellipsePerimeter(a: number, b: number): number {
  return Math.PI * (3 * (a + b) - Math.sqrt((3 * a + b) * (a + 3 * b)));
}

function average(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function keepInside(node: SimulationNode, area: LayoutArea): void {
  if (typeof node.fx === 'number') return;
  node.x = clamp(node.x ?? 0, node.halfWidth + MARGIN, area.width - node.halfWidth - MARGIN);
  node.y = clamp(node.y ?? 0, node.halfHeight + MARGIN, area.height - node.halfHeight - MARGIN);
}

function clamp(value: number, min: number, max: number): number {
  // When the box is wider than the area, it is centred (it still fits better than it would at a side).
  if (min > max) return (min + max) / 2;
  return Math.min(max, Math.max(min, value));
}
