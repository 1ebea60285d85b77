import { Text } from '@mantine/core';

export const FOOTER_TEXT = 'Internal tool, version 2.0';

export function FooterText() {
  return (
    <Text size="sm" c="dimmed" ta="center" data-testid="footer">
      {FOOTER_TEXT}
    </Text>
  );
}
