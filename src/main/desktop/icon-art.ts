/**
 * The till's icon as a few plain shapes (a green rounded square with a white Naira sign, and for
 * the tray a coloured status dot), drawn two ways from the same list: as SVG text (the design
 * source kept in build/) and as RGBA pixels (the app icon files and the tray at run time). No
 * image library: the shapes are simple enough to rasterise by supersampling.
 */

/** The tray's status dot: none, or the colour of what the till wants you to know. */
export type IconBadge = 'none' | 'blue' | 'amber' | 'red';

export interface IconOptions {
  /** The app icon leaves a margin around the square (as platform icons do); the tray does not. */
  readonly margin: boolean;
  readonly badge: IconBadge;
}

export const APP_ICON: IconOptions = { margin: true, badge: 'none' };

/** An sRGB colour with straight (not premultiplied) alpha, each 0..255. */
type Rgba = readonly [number, number, number, number];

interface Shape {
  /** Unit coordinates: (0,0) top left, (1,1) bottom right. */
  contains(x: number, y: number): boolean;
  /** x0, y0, x1, y1: nothing of the shape lies outside. */
  readonly bounds: readonly [number, number, number, number];
  colourAt(x: number, y: number): Rgba;
  svg(): string;
}

const WHITE: Rgba = [255, 255, 255, 255];
const GREEN_TOP: Rgba = [16, 132, 92, 255];
const GREEN_BOTTOM: Rgba = [8, 83, 60, 255];
const BADGE_COLOURS: Readonly<Record<Exclude<IconBadge, 'none'>, Rgba>> = {
  blue: [37, 99, 235, 255],
  amber: [245, 158, 11, 255],
  red: [220, 38, 38, 255],
};

function hex([r, g, b]: Rgba): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** Coordinates in SVG text: the viewBox is 0..1024. */
function u(value: number): string {
  return String(Math.round(value * 1024 * 100) / 100);
}

function roundedRect(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  radius: number,
  colour: (y: number) => Rgba,
  fill: string,
): Shape {
  return {
    contains(x, y) {
      if (x < x0 || x > x1 || y < y0 || y > y1) return false;
      // Inside the corner boxes, the point must be within the corner's circle.
      const cx = x < x0 + radius ? x0 + radius : x > x1 - radius ? x1 - radius : x;
      const cy = y < y0 + radius ? y0 + radius : y > y1 - radius ? y1 - radius : y;
      return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
    },
    bounds: [x0, y0, x1, y1],
    colourAt: (_x, y) => colour((y - y0) / (y1 - y0)),
    svg: () =>
      `<rect x="${u(x0)}" y="${u(y0)}" width="${u(x1 - x0)}" height="${u(y1 - y0)}" rx="${u(radius)}" fill="${fill}"/>`,
  };
}

function circle(cx: number, cy: number, radius: number, colour: Rgba): Shape {
  return {
    contains: (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2,
    bounds: [cx - radius, cy - radius, cx + radius, cy + radius],
    colourAt: () => colour,
    svg: () => `<circle cx="${u(cx)}" cy="${u(cy)}" r="${u(radius)}" fill="${hex(colour)}"/>`,
  };
}

function polygon(points: readonly (readonly [number, number])[], colour: Rgba): Shape {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return {
    contains(x, y) {
      // Even-odd ray casting.
      let inside = false;
      for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) {
        const xi = xs[i] as number;
        const yi = ys[i] as number;
        const xj = xs[j] as number;
        const yj = ys[j] as number;
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    },
    bounds: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    colourAt: () => colour,
    svg: () =>
      `<polygon points="${points.map(([x, y]) => `${u(x)},${u(y)}`).join(' ')}" fill="${hex(colour)}"/>`,
  };
}

function box(x0: number, y0: number, x1: number, y1: number, colour: Rgba): Shape {
  return polygon(
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ],
    colour,
  );
}

/** Shapes of one colour drawn as one: their shared edges get no seam (coverage is of the union). */
function union(parts: readonly Shape[], colour: Rgba): Shape {
  return {
    contains: (x, y) =>
      parts.some((part) => {
        const [x0, y0, x1, y1] = part.bounds;
        return x >= x0 && x <= x1 && y >= y0 && y <= y1 && part.contains(x, y);
      }),
    bounds: [
      Math.min(...parts.map((part) => part.bounds[0])),
      Math.min(...parts.map((part) => part.bounds[1])),
      Math.max(...parts.map((part) => part.bounds[2])),
      Math.max(...parts.map((part) => part.bounds[3])),
    ],
    colourAt: () => colour,
    svg: () => parts.map((part) => part.svg()).join(''),
  };
}

function mix(a: Rgba, b: Rgba, t: number): Rgba {
  const k = Math.min(1, Math.max(0, t));
  return [
    Math.round(a[0] + (b[0] - a[0]) * k),
    Math.round(a[1] + (b[1] - a[1]) * k),
    Math.round(a[2] + (b[2] - a[2]) * k),
    Math.round(a[3] + (b[3] - a[3]) * k),
  ];
}

/** The shapes of the icon, back to front. */
function shapesOf(options: IconOptions): readonly Shape[] {
  const m = options.margin ? 0.06 : 0;
  const shapes: Shape[] = [
    roundedRect(
      m,
      m,
      1 - m,
      1 - m,
      0.22 - m / 2,
      (t) => mix(GREEN_TOP, GREEN_BOTTOM, t),
      'url(#till-green)',
    ),
    // The Naira sign: two stems, the diagonal of the N, and two bars across.
    union(
      [
        box(0.27, 0.25, 0.37, 0.75, WHITE),
        box(0.63, 0.25, 0.73, 0.75, WHITE),
        polygon(
          [
            [0.27, 0.25],
            [0.38, 0.25],
            [0.73, 0.75],
            [0.62, 0.75],
          ],
          WHITE,
        ),
        box(0.19, 0.39, 0.81, 0.45, WHITE),
        box(0.19, 0.55, 0.81, 0.61, WHITE),
      ],
      WHITE,
    ),
  ];
  if (options.badge !== 'none') {
    // A white ring keeps the dot readable on a dark taskbar and on the green square alike.
    shapes.push(circle(0.79, 0.79, 0.21, WHITE));
    shapes.push(circle(0.79, 0.79, 0.16, BADGE_COLOURS[options.badge]));
  }
  return shapes;
}

/** The icon as an SVG document (1024 x 1024 view box). */
export function iconSvg(options: IconOptions = APP_ICON): string {
  const body = shapesOf(options)
    .map((shape) => `  ${shape.svg()}`)
    .join('\n');
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024">',
    '  <title>Transfer Till</title>',
    '  <defs>',
    '    <linearGradient id="till-green" x1="0" y1="0" x2="0" y2="1">',
    `      <stop offset="0" stop-color="${hex(GREEN_TOP)}"/>`,
    `      <stop offset="1" stop-color="${hex(GREEN_BOTTOM)}"/>`,
    '    </linearGradient>',
    '  </defs>',
    body,
    '</svg>',
    '',
  ].join('\n');
}

export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** width * height * 4 bytes, rows top to bottom, straight alpha. */
  readonly data: Uint8Array;
}

/** How much of the pixel (px, py) a shape covers, 0..1, sampled on an n x n grid. */
function coverage(shape: Shape, px: number, py: number, size: number, n: number): number {
  const [x0, y0, x1, y1] = shape.bounds;
  if ((px + 1) / size < x0 || px / size > x1 || (py + 1) / size < y0 || py / size > y1) return 0;
  let hits = 0;
  for (let sy = 0; sy < n; sy++) {
    for (let sx = 0; sx < n; sx++) {
      if (shape.contains((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size)) hits++;
    }
  }
  return hits / (n * n);
}

/**
 * Whether a pixel lies wholly inside (1) or outside (0) a shape, judged by its corners and
 * centre, or null when an edge may cross it. Every part of the icon is several pixels wide from
 * 64 pixels up, so an edge that crosses a pixel leaves its corners on both sides.
 */
function uniformCoverage(shape: Shape, px: number, py: number, size: number): 0 | 1 | null {
  const points: readonly (readonly [number, number])[] = [
    [px, py],
    [px + 1, py],
    [px, py + 1],
    [px + 1, py + 1],
    [px + 0.5, py + 0.5],
  ];
  let inside = 0;
  for (const [x, y] of points) if (shape.contains(x / size, y / size)) inside++;
  return inside === 0 ? 0 : inside === points.length ? 1 : null;
}

/**
 * The icon as square RGBA pixels. Pixels on an edge are sampled on an n x n grid (more samples
 * for small sizes, where one pixel of a stem is a large share of it) and the shapes are
 * composited over each other by their coverage.
 */
export function renderIcon(size: number, options: IconOptions = APP_ICON): RgbaImage {
  if (!Number.isInteger(size) || size < 1 || size > 4096) {
    throw new RangeError(`An icon size is a whole number from 1 to 4096, not ${size}`);
  }
  const shapes = shapesOf(options);
  const n = size <= 64 ? 8 : 4;
  const data = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      // Premultiplied accumulation, 0..1.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      const cx = (px + 0.5) / size;
      const cy = (py + 0.5) / size;
      for (const shape of shapes) {
        const covered =
          (size > 64 ? uniformCoverage(shape, px, py, size) : null) ??
          coverage(shape, px, py, size, n);
        if (covered === 0) continue;
        const [sr, sg, sb, sa] = shape.colourAt(cx, cy);
        const alpha = covered * (sa / 255);
        r = (sr / 255) * alpha + r * (1 - alpha);
        g = (sg / 255) * alpha + g * (1 - alpha);
        b = (sb / 255) * alpha + b * (1 - alpha);
        a = alpha + a * (1 - alpha);
      }
      const at = (py * size + px) * 4;
      if (a > 0) {
        data[at] = Math.round((r / a) * 255);
        data[at + 1] = Math.round((g / a) * 255);
        data[at + 2] = Math.round((b / a) * 255);
        data[at + 3] = Math.round(a * 255);
      }
    }
  }
  return { width: size, height: size, data };
}
