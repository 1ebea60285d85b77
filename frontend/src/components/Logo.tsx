import { Group, Text } from '@mantine/core';

/** The product mark, drawn inline: nothing is loaded from outside. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="6" fill="#0076B3" />
        <path d="M7 23V9h3.2l5.8 8 5.8-8H25v14h-3.2v-8.6L16 22.2l-5.8-7.8V23z" fill="#fff" />
      </svg>
      <Text fw={700} size="lg" c="brand.8">
        MentorPay
      </Text>
    </Group>
  );
}
