import { Anchor, Button, Group, Image, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminJobDetail } from '@lamella/contracts';
import { IconEdit } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { imageUrl } from '../../jobs/api';
import { companyOf, fullName, keyValues, overlayItems } from './api';

/** The mask editor for one of the job's masks (or a new one), in a new tab. */
function maskEditorLink(job: AdminJobDetail, maskId: string): string {
  return `/admin/mask-editor?${new URLSearchParams({ mask: maskId, image: job.image.id, job: job.id }).toString()}`;
}

/**
 * What a reviewer judges a job on (issue 26 item 2): the input image beside the result overlay, the key values,
 * the owner and company (linked), and the masks, each opening in the mask editor.
 */
export function JobReview({ job }: { job: AdminJobDetail }) {
  const { t, i18n } = useTranslation();
  const overlays = overlayItems(job);
  const values = keyValues(job);
  const company = companyOf(job);
  const num = (v: string | number | boolean) => (typeof v === 'number' ? v.toLocaleString(i18n.language, { maximumFractionDigits: 3 }) : String(v));
  const masks = [...job.masks, ...job.editedMasks];
  return (
    <Paper withBorder p="md" data-testid="job-review">
      <Stack gap="md">
        <Title order={3} size="h5">
          {t('adminJobs.review.title')}
        </Title>
        <Group gap="xl" wrap="wrap">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('adminJobs.review.owner')}
            </Text>
            <Anchor component={Link} to={`/admin/users/${job.owner.id}`} data-testid="job-owner">
              {fullName(job.owner)}
            </Anchor>
            {job.owner.email ? (
              <Text size="xs" c="dimmed">
                {job.owner.email}
              </Text>
            ) : null}
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('adminJobs.review.company')}
            </Text>
            {company ? (
              <Anchor
                component={Link}
                to={`/admin/jobs?${new URLSearchParams({ company }).toString()}`}
                title={t('adminJobs.review.companyJobs', { company })}
                data-testid="job-company"
              >
                {company}
              </Anchor>
            ) : (
              <Text size="sm">—</Text>
            )}
          </Stack>
          {job.parentJobId ? (
            <Anchor component={Link} to={`/admin/jobs/${job.parentJobId}`} size="sm" data-testid="job-parent">
              {t('adminJobs.review.parentJob', { id: job.parentJobId })}
            </Anchor>
          ) : null}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('adminJobs.review.inputImage')}
            </Text>
            <Image
              src={imageUrl.display(job.image.id)}
              alt={job.image.orginalFilename}
              fit="contain"
              mah={360}
              radius="sm"
              data-testid="job-input-image"
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('adminJobs.review.overlay')}
            </Text>
            {job.result && overlays.length ? (
              overlays.map((o) => (
                <Image
                  key={o.filename}
                  src={imageUrl.result(job.result!.id, o.filename)}
                  alt={o.title ?? o.filename}
                  fit="contain"
                  mah={360}
                  radius="sm"
                  data-testid="job-overlay-image"
                />
              ))
            ) : (
              <Text size="sm" c="dimmed">
                {t('adminJobs.review.noOverlay')}
              </Text>
            )}
          </Stack>
        </SimpleGrid>
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('adminJobs.review.keyValues')}
          </Text>
          {values.length ? (
            <Table withRowBorders={false} verticalSpacing={2} data-testid="job-key-values" maw={560}>
              <Table.Tbody>
                {values.map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Td>
                      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {k}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {num(v)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="dimmed">
              {t('adminJobs.review.noValues')}
            </Text>
          )}
        </div>
        <Group gap="xs" wrap="wrap" data-testid="job-masks">
          {masks.map((m) => (
            <Button
              key={m.id}
              component="a"
              href={maskEditorLink(job, m.id)}
              target="_blank"
              size="xs"
              variant="light"
              leftSection={<IconEdit size={14} />}
              title={t('adminJobs.review.openMask')}
            >
              {m.label || m.filename}
            </Button>
          ))}
          <Button component="a" href={maskEditorLink(job, '')} target="_blank" size="xs" variant="subtle" leftSection={<IconEdit size={14} />}>
            {masks.length ? t('adminJobs.review.openMask') : t('adminJobs.review.newMask')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
