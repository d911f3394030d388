import { ActionIcon, ColorSwatch, Group, SegmentedControl, Slider, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp, IconBrush, IconBucketDroplet, IconEraser, IconHandStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { canRedo, canUndo, redo, undo, type History } from './maskState';
import { LABELS, rgb, type Tool } from './maskImage';
import { ToolLabel } from './ToolLabel';

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

/** Tool (paint, erase, fill, hand), label colour (0 = unpainted), brush size, undo and redo. */
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
          { value: 'pan', label: <ToolLabel icon={<IconHandStop size={16} />} text={t('maskEditor.tools.pan')} /> },
        ]}
      />
      <Group gap={6} role="radiogroup" aria-label={t('maskEditor.label')}>
        <Text size="sm">{t('maskEditor.label')}</Text>
        {LABELS.map((l) => (
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
                color: l === 0 ? 'var(--mantine-color-dark-6)' : 'white',
                boxShadow: l === 0 ? 'inset 0 0 0 1px var(--mantine-color-gray-5)' : undefined,
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
