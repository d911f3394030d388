import { ActionIcon, ColorSwatch, Group, SegmentedControl, Slider, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp, IconBrush, IconBucketDroplet, IconEraser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { canRedo, canUndo, redo, undo, type History } from './maskState';
import { LABEL_COUNT, rgb, type Tool } from './maskImage';

interface Props {
  tool: Tool;
  onTool: (tool: Tool) => void;
  label: number;
  onLabel: (label: number) => void;
  brush: number;
  onBrush: (size: number) => void;
  history: History | null;
  act: (fn: (h: History) => History) => void;
}

function ToolLabel({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      {icon}
      <span>{text}</span>
    </Group>
  );
}

/** Tool, label colour, brush size, undo and redo. */
export function MaskToolbar({ tool, onTool, label, onLabel, brush, onBrush, history, act }: Props) {
  const { t } = useTranslation();
  return (
    <Group gap="md" wrap="wrap" align="center">
      <SegmentedControl
        value={tool}
        onChange={(v) => onTool(v as Tool)}
        aria-label={t('maskEditor.tool')}
        data={[
          { value: 'paint', label: <ToolLabel icon={<IconBrush size={16} />} text={t('maskEditor.tools.paint')} /> },
          { value: 'erase', label: <ToolLabel icon={<IconEraser size={16} />} text={t('maskEditor.tools.erase')} /> },
          { value: 'fill', label: <ToolLabel icon={<IconBucketDroplet size={16} />} text={t('maskEditor.tools.fill')} /> },
        ]}
      />
      <Group gap={6} role="radiogroup" aria-label={t('maskEditor.label')}>
        <Text size="sm">{t('maskEditor.label')}</Text>
        {Array.from({ length: LABEL_COUNT }, (_, i) => i + 1).map((l) => (
          <Tooltip key={l} label={t('maskEditor.labelN', { n: l })}>
            <ColorSwatch
              component="button"
              type="button"
              role="radio"
              aria-checked={label === l}
              aria-label={t('maskEditor.labelN', { n: l })}
              color={rgb(l)}
              size={26}
              onClick={() => onLabel(l)}
              style={{
                cursor: 'pointer',
                outline: label === l ? '3px solid var(--mantine-color-dark-6)' : undefined,
                outlineOffset: 2,
                color: 'white',
                fontSize: 12,
                fontWeight: 700,
              }}
            >
              {l}
            </ColorSwatch>
          </Tooltip>
        ))}
      </Group>
      <Group gap="xs" wrap="nowrap" w={220}>
        <Text size="sm">{t('maskEditor.brush')}</Text>
        <Slider value={brush} onChange={onBrush} min={2} max={80} style={{ flex: 1 }} aria-label={t('maskEditor.brush')} />
      </Group>
      <Group gap={4}>
        <ActionIcon variant="default" size="lg" onClick={() => act(undo)} disabled={!history || !canUndo(history)} aria-label={t('maskEditor.undo')}>
          <IconArrowBackUp size={18} />
        </ActionIcon>
        <ActionIcon variant="default" size="lg" onClick={() => act(redo)} disabled={!history || !canRedo(history)} aria-label={t('maskEditor.redo')}>
          <IconArrowForwardUp size={18} />
        </ActionIcon>
      </Group>
    </Group>
  );
}
