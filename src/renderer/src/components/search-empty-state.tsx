import type { ReactNode } from 'react';
import { EmptyState, Paper } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

export interface SearchEmptyStateProps {
  /**
   * `not-yet`: before the first search, what to do, in a panel as tall as its words; `no-match`: an
   * answer with no record, filling the place of the grid it stands for.
   */
  when: 'not-yet' | 'no-match';
  testId: string;
  icon: Icon;
  title: ReactNode;
  description: ReactNode;
}

/**
 * What a search page (Search, the Firms page's firm search) shows where its grid will be, when there is
 * no record to show: one frame for both pages, so they read alike.
 */
export function SearchEmptyState({ when, testId, icon: IconOf, title, description }: SearchEmptyStateProps) {
  const icon = <IconOf size={24} stroke={1.6} />;
  if (when === 'no-match')
    return (
      <Paper flex={1} p="xl" data-testid={testId}>
        <EmptyState h="100%" icon={icon} withIndicatorBackground title={title} description={description} />
      </Paper>
    );
  return (
    // The icon beside the words, not above them: with "More filters" open at 1024×700 the fields leave
    // it a few lines, and the words must be what shows.
    <Paper p="md" mah="100%" style={{ overflow: 'auto' }} data-testid={testId}>
      <EmptyState
        align="left"
        size="sm"
        icon={icon}
        withIndicatorBackground
        title={title}
        description={description}
      />
    </Paper>
  );
}
