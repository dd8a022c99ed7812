import {
  IconBuildingWarehouse,
  IconChartBar,
  IconDatabase,
  IconGauge,
  IconSearch,
  IconSettings,
  type Icon,
} from '@tabler/icons-react';
import type { PageId } from '../session';

/** One icon per page: the navigation bar, the command palette. */
export const PAGE_ICONS: Record<PageId, Icon> = {
  search: IconSearch,
  firms: IconBuildingWarehouse,
  library: IconDatabase,
  analysis: IconChartBar,
  usage: IconGauge,
  settings: IconSettings,
};
