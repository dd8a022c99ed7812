import { AnalysisPage } from '../features/analysis';
import { FirmsPage } from '../features/firms';
import { LibraryPage } from '../features/library';
import { SearchPage } from '../features/search';
import { SettingsPage } from '../features/settings';
import { UsagePage } from '../features/usage';
import { WatchPage } from '../features/watch';
import type { PageId } from '../session';

export function PageView({ page }: { page: PageId }) {
  switch (page) {
    case 'search':
      return <SearchPage />;
    case 'firms':
      return <FirmsPage />;
    case 'library':
      return <LibraryPage />;
    case 'analysis':
      return <AnalysisPage />;
    case 'watched':
      return <WatchPage />;
    case 'usage':
      return <UsagePage />;
    case 'settings':
      return <SettingsPage />;
  }
}
