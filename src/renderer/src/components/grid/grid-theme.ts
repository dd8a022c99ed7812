import {
  AllCommunityModule,
  ModuleRegistry,
  provideGlobalGridOptions,
  themeQuartz,
  type ColDef,
  type GridOptions,
  type ITooltipParams,
} from 'ag-grid-community';
import { useEffect } from 'react';
import { useResolvedColorScheme } from '../../theme';

// Registered once for the whole renderer; the community bundle is all these grids use.
ModuleRegistry.registerModules([AllCommunityModule]);

/**
 * Keyboard: a grid is one Tab stop, as a spreadsheet in a form is. The arrows (and Page Up/Down,
 * Home/End) move between its headers and cells; Tab and Shift+Tab leave it for the next or previous
 * control of the page. ag-grid's own Tab walks every header and every cell, which on an answer of
 * thousands of rows traps a keyboard user in the grid.
 */
provideGlobalGridOptions({ tabToNextCell: () => false, tabToNextHeader: () => false });

/**
 * A cell cut with an ellipsis (a long firm name at 1024 px) shows its whole text, as the cell writes
 * it, on hover; a cell shown whole shows nothing. The default column of a grid takes `tooltipValueGetter`,
 * the grid itself the options (ag-grid's truncation check is one setting for the whole grid).
 */
export const truncatedCellTooltip: Pick<ColDef, 'tooltipValueGetter'> = {
  tooltipValueGetter: (p: ITooltipParams) => {
    const text = p.valueFormatted ?? (p.value === null || p.value === undefined ? '' : String(p.value));
    return text === '' ? undefined : text;
  },
};
export const truncatedTooltipOptions: Pick<GridOptions, 'tooltipShowMode' | 'tooltipShowDelay'> = {
  tooltipShowMode: 'whenTruncated',
  tooltipShowDelay: 500,
};

/**
 * The grids' theme, drawn from the design system: its colours are Mantine's CSS variables, so a grid
 * follows the colour scheme with the rest of the page (dark gridlines in dark mode), and its type
 * matches the app's. The two modes only tell the browser which scrollbars to draw.
 */
export const gridTheme = themeQuartz
  .withParams({
    backgroundColor: 'var(--mantine-color-body)',
    foregroundColor: 'var(--mantine-color-text)',
    textColor: 'var(--mantine-color-text)',
    headerBackgroundColor: 'var(--portolan-grid-header)',
    headerTextColor: 'var(--mantine-color-text)',
    borderColor: 'var(--mantine-color-default-border)',
    rowHoverColor: 'var(--portolan-grid-row-hover)',
    accentColor: 'var(--mantine-primary-color-filled)',
    fontFamily: 'inherit',
    fontSize: 12,
    headerFontSize: 12,
    headerFontWeight: 600,
    spacing: 5,
    wrapperBorderRadius: 4,
  })
  .withParams({ browserColorScheme: 'light' }, 'light')
  .withParams({ browserColorScheme: 'dark' }, 'dark');

/**
 * The scheme in force, for `data-ag-theme-mode` (ag-grid reads the mode from that attribute on a
 * grid's wrapper or on <body>; on <body> it also reaches the popups the grids open).
 */
export function useGridThemeMode(): 'light' | 'dark' {
  const mode = useResolvedColorScheme();
  useEffect(() => {
    document.body.dataset.agThemeMode = mode;
  }, [mode]);
  return mode;
}
