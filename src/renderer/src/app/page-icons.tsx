import {
  IconBuildingWarehouse,
  IconChartBar,
  IconDatabase,
  IconEyeCheck,
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
  watched: IconEyeCheck,
  usage: IconGauge,
  settings: IconSettings,
};
