import { NewsCard } from '../news/NewsCard';
import { InsightsCard } from './InsightsCard';
import { NpsPrompt } from './NpsPrompt';

/** What the dashboard shows of the back-office's content: the NPS question when due, insights, then general news (each hidden when empty). */
export function DashboardInsightsNews() {
  return (
    <>
      <NpsPrompt />
      <InsightsCard />
      <NewsCard />
    </>
  );
}
