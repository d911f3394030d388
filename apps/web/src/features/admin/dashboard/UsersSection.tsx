import { SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useActiveUsers, useAverageNps, useCustomers, useLicenses } from './api';
import { ChangeBadge } from './ChangeBadge';
import { StatCard } from './StatCard';
import { useNumber } from './useNumber';

/** Section 'Users and licenses': Active Users, Net Promoter Score, Active Licenses, Customers Count. */
export function UsersSection() {
  const { t } = useTranslation();
  const num = useNumber();
  const active = useActiveUsers();
  const nps = useAverageNps();
  const licenses = useLicenses();
  const customers = useCustomers();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
      <StatCard
        testId="card-active-users"
        title={t('adminDashboard.activeUsers.title')}
        options={[
          // four choices in a quarter of the row: short labels (1 h, 7 d, …)
          { value: 'lastHour', label: t('adminDashboard.period.hourShort') },
          { value: 'last7days', label: t('adminDashboard.period.daysShort', { count: 7 }) },
          { value: 'last30days', label: t('adminDashboard.period.daysShort', { count: 30 }) },
          { value: 'last365days', label: t('adminDashboard.period.daysShort', { count: 365 }) },
        ]}
        figure={(c) => num(active.data?.[c as keyof NonNullable<typeof active.data>])}
        pending={active.isPending}
        failed={active.isError}
      />
      <StatCard
        testId="card-nps"
        title={t('adminDashboard.nps.title')}
        options={[
          { value: 'total', label: t('adminDashboard.period.total') },
          { value: 'last7Days', label: t('adminDashboard.period.days', { count: 7 }) },
          { value: 'last30Days', label: t('adminDashboard.period.days', { count: 30 }) },
        ]}
        figure={(c) => num(nps.data?.[c as keyof NonNullable<typeof nps.data>], 1)}
        pending={nps.isPending}
        failed={nps.isError}
      />
      <StatCard
        testId="card-licenses"
        title={t('adminDashboard.licenses.title')}
        options={[
          { value: 'imagesLimited', label: t('adminDashboard.licenses.imagesLimited') },
          { value: 'timeLimited', label: t('adminDashboard.licenses.timeLimited') },
        ]}
        figure={(c) => num(licenses.data?.[c as keyof NonNullable<typeof licenses.data>])}
        pending={licenses.isPending}
        failed={licenses.isError}
      />
      <StatCard
        testId="card-customers"
        title={t('adminDashboard.customers.title')}
        options={[
          { value: '7', label: t('adminDashboard.period.days', { count: 7 }) },
          { value: '30', label: t('adminDashboard.period.days', { count: 30 }) },
        ]}
        figure={(c) => num(c === '7' ? customers.data?.last7Days : customers.data?.last30Days)}
        pending={customers.isPending}
        failed={customers.isError}
        extra={(c) =>
          customers.data ? (
            <>
              <ChangeBadge
                current={c === '7' ? customers.data.last7Days : customers.data.last30Days}
                previous={c === '7' ? customers.data.previous7Days : customers.data.previous30Days}
              />
              <Text size="sm" c="dimmed" w="100%">
                {t('adminDashboard.customers.inLastDays', { count: Number(c) })}
              </Text>
              <Text size="xs" c="dimmed" w="100%">
                {t('adminDashboard.customers.total', { count: customers.data.total })}
              </Text>
            </>
          ) : null
        }
      />
    </SimpleGrid>
  );
}
