import { Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { GroupSharedJob } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../lib/format';
import { isJobStatus } from '../../lib/jobStatus';
import { StatusBadge } from '../jobs/StatusBadge';

/** Jobs of members' projects that they shared with the group admin; the project opens in /projects. */
export function SharedJobsTable({ jobs }: { jobs: GroupSharedJob[] }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('groupAdmin.shared.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('groupAdmin.shared.hint')}
        </Text>
        {jobs.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('groupAdmin.shared.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={680}>
            <Table striped verticalSpacing="xs" data-testid="group-shared-jobs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('groupAdmin.shared.image')}</Table.Th>
                  <Table.Th>{t('groupAdmin.shared.model')}</Table.Th>
                  <Table.Th>{t('groupAdmin.shared.owner')}</Table.Th>
                  <Table.Th>{t('groupAdmin.shared.project')}</Table.Th>
                  <Table.Th>{t('groupAdmin.shared.status')}</Table.Th>
                  <Table.Th>{t('groupAdmin.shared.created')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {jobs.map((j) => (
                  <Table.Tr key={j.id}>
                    <Table.Td>
                      <Text size="sm" lineClamp={1}>
                        {j.imageName}
                      </Text>
                    </Table.Td>
                    <Table.Td>{j.modelName}</Table.Td>
                    <Table.Td>{j.owner.fullName}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/projects?project=${j.projectId}`} size="sm">
                        {j.projectName}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{isJobStatus(j.status) ? <StatusBadge status={j.status} /> : j.status}</Table.Td>
                    <Table.Td>{fmt.dateTime(j.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
