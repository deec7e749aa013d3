/**
 * The checklist's groups and items, by id; their words are
 * `checklist.groups.<group>` and `checklist.items.<id>.{point,why}`. An id is
 * what the browser keeps once ticked, so an id never changes meaning.
 */
export const GROUPS = [
  {
    id: 'accounts',
    items: [
      'unique-passwords',
      'password-manager',
      'long-passphrase',
      'breach-alerts',
      'recovery-details',
      'old-accounts',
    ],
  },
  { id: 'twofactor', items: ['enable-2fa', 'app-over-sms', 'backup-codes', 'passkeys', 'security-key'] },
  { id: 'browser', items: ['browser-updates', 'extensions', 'https-only', 'third-party-cookies', 'site-permissions'] },
  {
    id: 'devices',
    items: ['system-updates', 'screen-lock', 'disk-encryption', 'find-device', 'official-stores', 'app-permissions'],
  },
  {
    id: 'network',
    items: ['router-password', 'router-firmware', 'wifi-encryption', 'guest-network', 'wps-off', 'public-wifi'],
  },
  { id: 'email', items: ['phishing-signs', 'unexpected-attachments', 'email-aliases', 'forwarding-rules'] },
  { id: 'messaging', items: ['end-to-end', 'verify-contacts', 'disappearing-messages'] },
  { id: 'backups', items: ['backup-copies', 'offline-copy', 'test-restore'] },
  { id: 'privacy', items: ['social-audience', 'location-history', 'ad-personalisation', 'share-less'] },
] as const;

export type GroupId = (typeof GROUPS)[number]['id'];
export type ItemId = (typeof GROUPS)[number]['items'][number];

export const ALL_ITEMS: readonly ItemId[] = GROUPS.flatMap((group) => group.items);
