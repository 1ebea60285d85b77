import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { useHasPermission } from '../lib/hooks';

/**
 * "History": the audit trail filtered to one record, for those who may read the trail
 * (nothing for anyone else). `entityType` and `entityId` as the trail names the record.
 */
export function HistoryLink({ entityType, entityId }: { entityType: string; entityId: number }) {
  const allowed = useHasPermission('audit:read');
  if (!allowed) return null;
  const search = new URLSearchParams({ EntityType: entityType, EntityId: String(entityId) });
  return (
    <Button variant="default" component={Link} to={`/settings/audit-log?${search}`}>
      History
    </Button>
  );
}
