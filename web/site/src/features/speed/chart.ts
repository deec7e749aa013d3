export interface ChartLine {
  /** An SVG path through the points, in a box of `width` × `height`, the top being `top` Mb/s. */
  path: string;
  /** The largest and the last point, for the chart's words. */
  max: number;
  last: number;
}

/** A round top for the axis at or above `value`: 1, 2 or 5 times a power of ten. */
export function niceTop(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((top) => top >= value)!;
}

/** Each transfer's speed as a line across the box, in the order measured; null without points. */
export function chartLine(points: number[], top: number, width: number, height: number): ChartLine | null {
  if (!points.length) return null;
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  const y = (v: number) => Math.round((height - (Math.min(v, top) / top) * height) * 10) / 10;
  const x = (i: number) => Math.round(i * step * 10) / 10;
  const path = points.map((v, i) => `${i ? 'L' : 'M'}${x(i)} ${y(v)}`).join(' ');
  // A single point is drawn as a short flat line, so it shows.
  return {
    path: points.length > 1 ? path : `${path} L${width} ${y(points[0]!)}`,
    max: Math.max(...points),
    last: points[points.length - 1]!,
  };
}
