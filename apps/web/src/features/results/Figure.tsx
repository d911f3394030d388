import { Anchor, Card, Image, Text } from '@mantine/core';

export function Figure({ src, caption, alt }: { src: string; caption: string; alt: string }) {
  return (
    <Card withBorder padding={4} component="figure" m={0}>
      <Anchor href={src} target="_blank" rel="noreferrer">
        <Image src={src} alt={alt} loading="lazy" fit="contain" mah={420} />
      </Anchor>
      <Text component="figcaption" size="xs" c="dimmed" ta="center" mt={4}>
        {caption}
      </Text>
    </Card>
  );
}
