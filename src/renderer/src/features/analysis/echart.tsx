import { useEffect, useRef } from 'react';
import { BarChart, LineChart, SankeyChart, TreemapChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption, ECharts } from 'echarts/core';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { chartBackground, chartTheme, chartThemeName, useResolvedColorScheme } from '../../theme';

// Only the charts the analysis views draw; the canvas renderer is what getDataURL exports as PNG.
echarts.use([
  SVGRenderer,
  BarChart,
  LineChart,
  TreemapChart,
  SankeyChart,
  GridComponent,
  TooltipComponent,
  TitleComponent,
  LegendComponent,
  CanvasRenderer,
]);
// The design system's two chart themes (dark gridlines and light text in dark mode).
for (const scheme of ['light', 'dark'] as const)
  echarts.registerTheme(chartThemeName(scheme), chartTheme(scheme));

export interface ChartClick {
  dataType?: string;
  dataIndex: number;
  data: unknown;
}

export interface EChartProps {
  option: EChartsCoreOption;
  onClick?: (e: ChartClick) => void;
  /** Receives the instance (for PNG export) and null when it is disposed. */
  onInstance?: (chart: ECharts | null) => void;
  /** Pixels, or a CSS length (e.g. a clamp() on the window's height): the chart follows its element. */
  height?: number | string;
  testId: string;
  /**
   * Data coordinates of series 0's items (e.g. each bar's middle). Their pixel positions are written to
   * `data-hit-points` after every render, so an end-to-end test can click an item on the canvas
   * where it really is; the chart itself does not use them.
   */
  hitPoints?: readonly (readonly [number, number])[];
}

/** A minimal React wrapper: init once, setOption on change, resize with the element, dispose on unmount. */
export function EChart({ option, onClick, onInstance, height = 320, testId, hitPoints }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const scheme = useResolvedColorScheme();
  const schemeRef = useRef(scheme);
  const clickRef = useRef(onClick);
  const instanceRef = useRef(onInstance);
  useEffect(() => {
    clickRef.current = onClick;
    instanceRef.current = onInstance;
  });

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const c = echarts.init(node, chartThemeName(schemeRef.current), {
      renderer: canvasWorks() ? 'canvas' : 'svg',
    });
    chart.current = c;
    c.on('click', (p) => {
      const params = p as unknown as ChartClick;
      clickRef.current?.({ dataType: params.dataType, dataIndex: params.dataIndex, data: params.data });
    });
    instanceRef.current?.(c);
    const resize = () => c.resize();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(resize);
    ro?.observe(node);
    if (!ro) window.addEventListener('resize', resize);
    return () => {
      ro?.disconnect();
      window.removeEventListener('resize', resize);
      instanceRef.current?.(null);
      c.dispose();
      chart.current = null;
    };
  }, []);

  // The colour scheme changed: the same chart, redrawn in the other theme.
  useEffect(() => {
    if (schemeRef.current === scheme) return;
    schemeRef.current = scheme;
    chart.current?.setTheme(chartThemeName(scheme));
  }, [scheme]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    c.setOption(option, { notMerge: true });
    const node = el.current;
    if (!node || !hitPoints) return;
    const write = () => {
      const pixels = hitPoints.map((p) => c.convertToPixel({ seriesIndex: 0 }, [p[0], p[1]]) as number[]);
      node.dataset.hitPoints = JSON.stringify(pixels.map((xy) => xy.map((v) => Math.round(v))));
    };
    write();
    // A resize moves the items: keep the positions current.
    c.on('finished', write);
    return () => {
      c.off('finished', write);
    };
  }, [option, hitPoints]);

  return <div ref={el} data-testid={testId} data-chart-theme={scheme} style={{ width: '100%', height }} />;
}

let canvasSupport: boolean | null = null;
/** Canvas (needed for PNG export) where it works; SVG where it does not (e.g. a DOM without canvas). */
function canvasWorks(): boolean {
  canvasSupport ??= (() => {
    try {
      return document.createElement('canvas').getContext('2d') !== null;
    } catch {
      return false;
    }
  })();
  return canvasSupport;
}

/**
 * The chart as an image data URL: PNG from the canvas renderer, SVG from the fallback, on the page
 * colour of the scheme it is drawn in (light text on white would be unreadable).
 */
export function chartImage(chart: ECharts): { url: string; extension: 'png' | 'svg' } {
  const png = canvasWorks();
  const scheme = chart.getDom().dataset.chartTheme === 'dark' ? 'dark' : 'light';
  const url = chart.getDataURL({
    type: png ? 'png' : 'svg',
    pixelRatio: 2,
    backgroundColor: chartBackground(scheme),
  });
  return { url, extension: png ? 'png' : 'svg' };
}
