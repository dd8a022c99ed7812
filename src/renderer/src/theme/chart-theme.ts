import { DEFAULT_THEME } from '@mantine/core';
import { theme } from './theme';

const c = (name: string, shade: number): string => {
  const palette = theme.colors?.[name] ?? DEFAULT_THEME.colors[name];
  return palette?.[shade] ?? '#888888';
};

/** The series colours, in order: distinguishable, and the same hues in both schemes. */
const SERIES = ['blue', 'teal', 'orange', 'grape', 'yellow', 'cyan', 'red', 'lime', 'indigo', 'pink'];

export type ChartThemeName = 'portolan-light' | 'portolan-dark';

export const chartThemeName = (scheme: 'light' | 'dark'): ChartThemeName => `portolan-${scheme}`;

/**
 * ECharts themes drawn from the Mantine theme (charts draw on a canvas: CSS variables do not reach
 * them). Dark mode gets dark gridlines and light text; both have a transparent background so the
 * chart sits on the page's surface.
 */
export function chartTheme(scheme: 'light' | 'dark'): Record<string, unknown> {
  const dark = scheme === 'dark';
  const text = dark ? c('dark', 0) : c('gray', 8);
  const dimmed = dark ? c('dark', 2) : c('gray', 6);
  const axis = dark ? c('dark', 3) : c('gray', 5);
  const grid = dark ? c('dark', 5) : c('gray', 2);
  const surface = dark ? c('dark', 6) : '#ffffff';
  const axisStyle = {
    axisLine: { lineStyle: { color: axis } },
    axisTick: { lineStyle: { color: axis } },
    axisLabel: { color: dimmed },
    splitLine: { lineStyle: { color: [grid] } },
    splitArea: { areaStyle: { color: ['transparent'] } },
    nameTextStyle: { color: dimmed },
  };
  return {
    color: SERIES.map((name) => c(name, dark ? 4 : 6)),
    backgroundColor: 'transparent',
    textStyle: { color: text, fontFamily: theme.fontFamily },
    title: { textStyle: { color: text }, subtextStyle: { color: dimmed } },
    legend: { textStyle: { color: text } },
    tooltip: {
      backgroundColor: surface,
      borderColor: dark ? c('dark', 4) : c('gray', 3),
      textStyle: { color: text },
    },
    categoryAxis: axisStyle,
    valueAxis: axisStyle,
    timeAxis: axisStyle,
    logAxis: axisStyle,
    treemap: { breadcrumb: { itemStyle: { color: surface, textStyle: { color: text } } } },
    sankey: { label: { color: text }, lineStyle: { color: 'gradient', opacity: dark ? 0.35 : 0.25 } },
  };
}

/** The page colour behind a chart in each scheme: what an exported PNG is painted on. */
export function chartBackground(scheme: 'light' | 'dark'): string {
  return scheme === 'dark' ? c('dark', 7) : '#ffffff';
}
