export { cssVariablesResolver, theme } from './theme';
export {
  COLOR_SCHEME_CHOICES,
  DEFAULT_COLOR_SCHEME,
  colorSchemeManager,
  useColorSchemeChoice,
  useResolvedColorScheme,
  type ColorSchemeChoice,
} from './color-scheme';
export { chartBackground, chartTheme, chartThemeName, type ChartThemeName } from './chart-theme';
