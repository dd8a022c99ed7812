import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface PageProps {
  testId: string;
  children: ReactNode;
  /**
   * 'fill': the page takes exactly the window's height and its last child takes what is left (a grid
   * that fills the window); 'scroll' (default): the page grows and the page area scrolls.
   */
  layout?: 'scroll' | 'fill';
  /** Reading width for forms and text pages (Settings, Usage); workbenches use the whole width. */
  narrow?: boolean;
  className?: string;
  'aria-labelledby'?: string;
  /** Data attributes for tests and observers (`data-answers`). */
  [data: `data-${string}`]: string | number | undefined;
}

/** The frame of every page: the same padding and gaps everywhere (docs/design-system.md). */
export function Page({ testId, children, layout = 'scroll', narrow, className, ...rest }: PageProps) {
  const fill = layout === 'fill';
  return (
    <Stack
      {...rest}
      component="section"
      data-testid={testId}
      className={className}
      gap="md"
      px="lg"
      py="md"
      w="100%"
      maw={narrow ? 1100 : undefined}
      flex={fill ? 1 : undefined}
      mih={fill ? 0 : undefined}
      style={fill ? { overflow: 'hidden' } : undefined}
    >
      {children}
    </Stack>
  );
}

export interface PageHeaderProps {
  title: ReactNode;
  /** Id of the title, for the page's aria-labelledby. */
  titleId?: string;
  /** One line under the title, in dimmed text. */
  description?: ReactNode;
  /** Right-aligned: the page's primary action last, secondary ones before it. */
  actions?: ReactNode;
  /** Extra facts beside the title (a count, a badge). */
  aside?: ReactNode;
}

/** A page's title row: title (h1) and description on the left, the page's actions on the right. */
export function PageHeader({ title, titleId, description, actions, aside }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
      <Box miw={0}>
        <Group gap="sm" align="baseline" wrap="nowrap">
          <Title order={1} id={titleId}>
            {title}
          </Title>
          {aside}
        </Group>
        {description ? (
          <Text c="dimmed" fz="md" mt={2}>
            {description}
          </Text>
        ) : null}
      </Box>
      {actions ? (
        <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
          {actions}
        </Group>
      ) : null}
    </Group>
  );
}
