/**
 * A bar chart in plain SVG: no charting library, because a few rectangles and labels cost the
 * initial load a few kilobytes where a library costs tens.
 *
 * To a screen reader the chart is one image with a summary for its name (role="img"); the table
 * beside it carries every figure. For the eye: pointing at (or touching) a bar shows its figures,
 * and so does focusing the chart and moving with the arrow keys (the figures are announced).
 */
import { useState, type KeyboardEvent } from 'react';
import { axisTop, barHeight, formatNairaShort } from './chart-scale';
import './charts.css';

export interface ChartBar {
  readonly key: string;
  /** Under the bar, short: "09", "Sun 22". */
  readonly axisLabel: string;
  /** The bar's height: an amount in kobo. */
  readonly valueKobo: number;
  /** A part of the bar drawn solid from the baseline (this till within the shop); none if absent. */
  readonly partKobo?: number;
  /** The bar's figures in words, shown on hover or focus: "13:00–14:00: 32 transfers, ₦103,456.00". */
  readonly readout: string;
}

export interface BarChartProps {
  /** What the chart is, for its <title>. */
  readonly title: string;
  /** What it shows, in a sentence or two: its accessible name. */
  readonly summary: string;
  readonly bars: readonly ChartBar[];
  /** Test id of the <svg>; its readout is `${testId}-readout`. */
  readonly testId: string;
  /** Width of one bar's slot in SVG units: the drawing grows with the number of bars. */
  readonly slotWidth: number;
}

/** SVG units; the drawing scales to its box's width (viewBox), so labels keep their proportions. */
const PLOT_HEIGHT = 160;
const MARGIN = { top: 22, right: 8, bottom: 26, left: 60 } as const;
const BAR_SHARE = 0.7;

function busiest(bars: readonly ChartBar[]): number {
  let best = 0;
  bars.forEach((bar, i) => {
    if (bar.valueKobo > (bars[best]?.valueKobo ?? 0)) best = i;
  });
  return best;
}

/** The bar an arrow, Home or End key moves to from `from` (null: not a key the chart takes). */
function keyedBar(key: string, from: number, last: number): number | null {
  if (key === 'ArrowRight' || key === 'ArrowDown') return Math.min(last, from + 1);
  if (key === 'ArrowLeft' || key === 'ArrowUp') return Math.max(0, from - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}

export function BarChart({ title, summary, bars, testId, slotWidth }: BarChartProps) {
  const [active, setActive] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const top = axisTop(Math.max(0, ...bars.map((bar) => bar.valueKobo)));
  const width = MARGIN.left + bars.length * slotWidth + MARGIN.right;
  const height = MARGIN.top + PLOT_HEIGHT + MARGIN.bottom;
  const baseline = MARGIN.top + PLOT_HEIGHT;
  const ticks = [0, top / 2, top];
  const shown = active === null ? null : (bars[active] ?? null);

  function onKeyDown(event: KeyboardEvent<SVGSVGElement>): void {
    const next = keyedBar(event.key, active ?? busiest(bars), bars.length - 1);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
  }

  return (
    <div className="bar-chart">
      <svg
        className="bar-chart-drawing"
        data-testid={testId}
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="xMinYMin meet"
        tabIndex={0}
        onFocus={() => {
          setFocused(true);
          setActive((current) => current ?? busiest(bars));
        }}
        onBlur={() => {
          setFocused(false);
          setActive(null);
        }}
        onKeyDown={onKeyDown}
        onPointerLeave={() => {
          if (!focused) setActive(null);
        }}
      >
        <title>{title}</title>
        <Ticks ticks={ticks} top={top} width={width} baseline={baseline} />
        {bars.map((bar, i) => (
          <Bar
            key={bar.key}
            bar={bar}
            slotX={MARGIN.left + i * slotWidth}
            slotWidth={slotWidth}
            top={top}
            baseline={baseline}
            active={i === active}
            onActive={() => setActive(i)}
          />
        ))}
        <line
          className="bar-chart-baseline"
          x1={MARGIN.left}
          x2={width - MARGIN.right}
          y1={baseline}
          y2={baseline}
        />
      </svg>
      <p className="bar-chart-readout no-print">
        <span aria-live="polite" data-testid={`${testId}-readout`}>
          {shown?.readout ?? ''}
        </span>
        {shown === null && (
          <span className="muted">
            Point at or touch a bar for its figures; on the keyboard, select the chart and use the
            arrow keys.
          </span>
        )}
      </p>
    </div>
  );
}

function Ticks({
  ticks,
  top,
  width,
  baseline,
}: {
  readonly ticks: readonly number[];
  readonly top: number;
  readonly width: number;
  readonly baseline: number;
}) {
  return ticks.map((tick) => {
    const y = baseline - (tick / top) * PLOT_HEIGHT;
    return (
      <g key={tick} className="bar-chart-tick">
        <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y} y2={y} />
        <text x={MARGIN.left - 6} y={y} dy="0.35em" textAnchor="end">
          {formatNairaShort(tick)}
        </text>
      </g>
    );
  });
}

function Bar({
  bar,
  slotX,
  slotWidth,
  top,
  baseline,
  active,
  onActive,
}: {
  readonly bar: ChartBar;
  readonly slotX: number;
  readonly slotWidth: number;
  readonly top: number;
  readonly baseline: number;
  readonly active: boolean;
  readonly onActive: () => void;
}) {
  const barWidth = slotWidth * BAR_SHARE;
  const x = slotX + (slotWidth - barWidth) / 2;
  const whole = barHeight(bar.valueKobo, top, PLOT_HEIGHT);
  const part = bar.partKobo === undefined ? null : barHeight(bar.partKobo, top, PLOT_HEIGHT);
  return (
    <g
      className={active ? 'bar-chart-bar active' : 'bar-chart-bar'}
      data-key={bar.key}
      onPointerEnter={onActive}
      onClick={onActive}
    >
      {/* The whole slot answers the pointer: a short bar is hard to hit. */}
      <rect
        className="bar-chart-hit"
        x={slotX}
        y={MARGIN.top}
        width={slotWidth}
        height={PLOT_HEIGHT}
      />
      {whole > 0 && (
        <rect
          className={part === null ? 'bar-chart-value' : 'bar-chart-whole'}
          x={x}
          y={baseline - whole}
          width={barWidth}
          height={whole}
        />
      )}
      {part !== null && part > 0 && (
        <rect className="bar-chart-part" x={x} y={baseline - part} width={barWidth} height={part} />
      )}
      {active && (
        <text
          className="bar-chart-value-label"
          x={slotX + slotWidth / 2}
          y={baseline - whole - 6}
          textAnchor="middle"
        >
          {formatNairaShort(bar.valueKobo)}
        </text>
      )}
      <text
        className="bar-chart-axis-label"
        x={slotX + slotWidth / 2}
        y={baseline + 18}
        textAnchor="middle"
      >
        {bar.axisLabel}
      </text>
    </g>
  );
}
