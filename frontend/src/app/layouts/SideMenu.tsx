import type { PermissionCode } from '../../lib/permissions';
import { NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { selectPermissions } from '../../api/authSlice';
import { useAppSelector } from '../../lib/hooks';

// The side menu: each entry only when the user holds its permission.
export const MENU_ENTRIES: { label: string; to: string; section: string; permission?: PermissionCode }[] = [
  { label: 'Home', to: '/', section: '/' },
  { label: 'Participant Management', to: '/participant/list', section: '/participant', permission: 'participant:read' },
  { label: 'Reports', to: '/reports', section: '/reports', permission: 'report:read' },
  { label: 'Budgets', to: '/budget/list', section: '/budget', permission: 'budget:read' },
  { label: 'Settings', to: '/settings', section: '/settings', permission: 'setting:viewmenu' },
  { label: 'Audit trail', to: '/settings/audit-log', section: '/settings/audit-log', permission: 'audit:read' },
];

function inSection(pathname: string, section: string) {
  if (section === '/') return pathname === '/' || pathname.startsWith('/payment-request');
  return pathname === section || pathname.startsWith(`${section}/`);
}

/** The entry whose section holds the page most closely (the audit trail lives under Settings). */
function activeSection(pathname: string) {
  const holding = MENU_ENTRIES.map((e) => e.section).filter((s) => inSection(pathname, s));
  return holding.sort((a, b) => b.length - a.length)[0];
}

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const permissions = useAppSelector(selectPermissions);
  const { pathname } = useLocation();
  const active = activeSection(pathname);
  return (
    // The layout's navigation landmark holds this list.
    <Stack gap={4}>
      {MENU_ENTRIES.filter((entry) => !entry.permission || permissions.includes(entry.permission)).map((entry) => (
        <NavLink
          key={entry.to}
          component={Link}
          to={entry.to}
          label={entry.label}
          active={entry.section === active}
          onClick={onNavigate}
          variant="filled"
          style={{ borderRadius: 'var(--mantine-radius-sm)' }}
        />
      ))}
    </Stack>
  );
}
