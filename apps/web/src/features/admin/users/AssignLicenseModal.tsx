import { Modal, NumberInput, Select, Stack } from '@mantine/core';
import type { LicenseType } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/FormActions';
import { errorText, fieldErrors } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAssignLicense } from './api';

/** back-office.md §9 license defaults: type IMAGES_LIMITED, images 20, days 30. */
export const LICENSE_DEFAULTS = { type: 'IMAGES_LIMITED' as LicenseType, images: 20, days: 30 };
const TYPES: LicenseType[] = ['IMAGES_LIMITED', 'TIME_LIMITED', 'UNLIMITED'];

/** Assign license: POST /admin/licenses; images are required for IMAGES_LIMITED, days for TIME_LIMITED (§5). */
export function AssignLicenseModal({ userId, onClose }: { userId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [type, setType] = useState<LicenseType>(LICENSE_DEFAULTS.type);
  const [images, setImages] = useState<number | ''>(LICENSE_DEFAULTS.images);
  const [days, setDays] = useState<number | ''>(LICENSE_DEFAULTS.days);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const assign = useAssignLicense();
  const submit = () => {
    const local: Record<string, string> = {};
    if (type === 'IMAGES_LIMITED' && !(typeof images === 'number' && images > 0)) local.images = t('adminUsersErrors.imagesRequired');
    if (type === 'TIME_LIMITED' && !(typeof days === 'number' && days > 0)) local.days = t('adminUsersErrors.daysRequired');
    setErrors(local);
    if (Object.keys(local).length) return;
    assign.mutate(
      {
        id: userId,
        body: {
          type,
          ...(type === 'IMAGES_LIMITED' ? { images: Number(images) } : {}),
          ...(type === 'TIME_LIMITED' ? { days: Number(days) } : {}),
        },
      },
      {
        onSuccess: () => {
          notifySuccess(t('adminUsers.messages.licenseAssigned'));
          onClose();
        },
        onError: (e) => {
          setErrors(fieldErrors(t, e));
          notifyError(errorText(t, e));
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('adminUsers.actions.assignLicense')}>
      <Stack>
        <Select
          label={t('adminUsers.license.type')}
          data={TYPES.map((v) => ({ value: v, label: t(`adminUsers.licenseTypes.${v}`) }))}
          value={type}
          onChange={(v) => v && setType(v as LicenseType)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="license-type"
        />
        {type === 'IMAGES_LIMITED' ? (
          <NumberInput
            label={t('adminUsers.license.imagesLabel')}
            min={1}
            required
            value={images}
            onChange={(v) => setImages(typeof v === 'number' ? v : '')}
            error={errors.images}
            data-testid="license-images"
          />
        ) : null}
        {type === 'TIME_LIMITED' ? (
          <NumberInput
            label={t('adminUsers.license.daysLabel')}
            min={1}
            required
            value={days}
            onChange={(v) => setDays(typeof v === 'number' ? v : '')}
            error={errors.days}
            data-testid="license-days"
          />
        ) : null}
        <FormActions onCancel={onClose} onSubmit={submit} submitLabel={t('adminUsers.assign')} loading={assign.isPending} />
      </Stack>
    </Modal>
  );
}
