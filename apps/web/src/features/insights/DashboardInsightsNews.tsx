import { NewsCard } from '../news/NewsCard';
import { InsightsCard } from './InsightsCard';

/** What the dashboard shows of the back-office's content: insights, then general news (each hidden when empty). */
export function DashboardInsightsNews() {
  return (
    <>
      <InsightsCard />
      <NewsCard />
    </>
  );
}
