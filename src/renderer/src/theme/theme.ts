import { createTheme, rem, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * A blue-grey dark palette (Mantine's own is neutral grey): in dark mode the body is shade 7, inputs
 * shade 6, borders shade 4 and text shade 0.
 */
const dark: MantineColorsTuple = [
  '#d7dce4',
  '#b6bfcc',
  '#929dae',
  '#6f7a8c',
  '#4b5566',
  '#363e4d',
  '#2a313d',
  '#1f242d',
  '#181c23',
  '#12151a',
];

/**
 * The design system's tokens: one primary colour, a dense type scale (13 px body text, 12 px in
 * tables and captions), 4-px-based spacing and small radii. Pages take every size, colour and gap
 * from here (through Mantine props or `var(--mantine-…)`), never from numbers of their own.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 7, dark: 5 },
  colors: { dark },
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  fontFamilyMonospace: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
  fontSizes: { xs: rem(11), sm: rem(12), md: rem(13), lg: rem(15), xl: rem(17) },
  lineHeights: { xs: '1.4', sm: '1.45', md: '1.5', lg: '1.5', xl: '1.5' },
  spacing: { xs: rem(4), sm: rem(8), md: rem(12), lg: rem(16), xl: rem(24) },
  radius: { xs: rem(2), sm: rem(4), md: rem(6), lg: rem(8), xl: rem(12) },
  defaultRadius: 'sm',
  headings: {
    fontWeight: '600',
    sizes: {
      h1: { fontSize: rem(20), lineHeight: '1.3' },
      h2: { fontSize: rem(16), lineHeight: '1.35' },
      h3: { fontSize: rem(14), lineHeight: '1.4' },
      h4: { fontSize: rem(13), lineHeight: '1.4' },
    },
  },
  cursorType: 'pointer',
  focusRing: 'auto',
  components: {
    // Controls are 'sm' everywhere (32 px high, see density.css); a toolbar inside a grid may use 'xs'.
    Button: { defaultProps: { size: 'sm' } },
    ActionIcon: { defaultProps: { variant: 'subtle', color: 'gray' } },
    Tooltip: { defaultProps: { openDelay: 400, withArrow: true } },
    Modal: { defaultProps: { centered: true } },
    Drawer: { defaultProps: { position: 'right', size: 'md' } },
    Alert: { defaultProps: { variant: 'light' } },
    Paper: { defaultProps: { withBorder: true, p: 'md' } },
    Table: { defaultProps: { fz: 'sm', verticalSpacing: 6, highlightOnHover: true } },
  },
});

/**
 * Mantine draws light and subtle controls of a colour in dark mode in its shade 0, near white: a grid's
 * "Parties" button, a subtle link-like action, read as plain white text rather than as the primary
 * colour. The theme's dark text shade of that colour (shade 4, as `--mantine-color-<colour>-text`)
 * keeps them the primary colour and readable on the dark surfaces.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {},
  dark: { [`--mantine-color-${t.primaryColor}-light-color`]: `var(--mantine-color-${t.primaryColor}-4)` },
});
