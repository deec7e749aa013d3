import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { domainText, ipNetworkText } from '../../routes/whois/rdap-text.js';

const json = (...parts: string[]) => fixture(...parts) as Record<string, unknown>;

test('a domain: name, registry ID, dates, statuses, contacts by role (nested ones too), name servers, DNSSEC', () => {
  assert.equal(
    domainText(json('rdap.verisign.com', 'domain-google.com.json'), 'google.com'),
    [
      'Domain Name: GOOGLE.COM',
      'Registry Domain ID: 2138514_DOMAIN_COM-VRSN',
      'Created: 1997-09-15T04:00:00Z',
      'Updated: 2019-09-09T15:39:04Z',
      'Expires: 2028-09-14T04:00:00Z',
      'RDAP Last Refresh: 2026-11-23T09:12:05Z',
      'Status:',
      '  client delete prohibited',
      '  client transfer prohibited',
      '  client update prohibited',
      '  server delete prohibited',
      '  server transfer prohibited',
      '  server update prohibited',
      '',
      'Registrar:',
      '  Handle: 292',
      '  Name: MarkMonitor Inc.',
      '',
      'Abuse:',
      '  Email: abusecomplaints@markmonitor.com',
      '  Phone: +1.2086851750',
      '',
      'Name Servers:',
      '  NS1.GOOGLE.COM',
      '  NS2.GOOGLE.COM',
      '  NS3.GOOGLE.COM',
      '  NS4.GOOGLE.COM',
      '',
      'DNSSEC: unsigned',
    ].join('\n'),
  );
});

test('a signed delegation reads "signed"; an IDN shows its Unicode name; a bare object still names the domain', () => {
  assert.match(domainText(json('rdap.verisign.com', 'domain-example.com.json'), 'example.com'), /\n\nDNSSEC: signed$/);
  assert.equal(
    domainText({ ldhName: 'xn--mnchen-3ya.de', unicodeName: 'münchen.de', secureDNS: {} }, 'xn--mnchen-3ya.de'),
    'Domain Name: xn--mnchen-3ya.de\nUnicode Name: münchen.de\n\nDNSSEC: unsigned',
  );
  assert.equal(
    domainText({ ldhName: 'EXAMPLE.ORG', unicodeName: 'example.org' }, 'example.org'),
    'Domain Name: EXAMPLE.ORG',
  );
  assert.equal(domainText({}, 'example.org'), 'Domain Name: example.org');
});

test('contact blocks follow the role order, other roles after, role-less entities as contacts', () => {
  const card = (fn: string) => [
    'vcard',
    [
      ['version', {}, 'text', '4.0'],
      ['fn', {}, 'text', fn],
    ],
  ];
  const text = domainText(
    {
      ldhName: 'example.org',
      entities: [
        { roles: ['sponsor'], vcardArray: card('Sponsor Ltd') },
        { roles: ['technical'], vcardArray: card('Tech Person') },
        { vcardArray: card('Nobody') },
        { roles: ['registrant'], vcardArray: card('Registrant Org'), handle: 'R-1' },
      ],
    },
    'example.org',
  );
  assert.equal(
    text,
    [
      'Domain Name: example.org',
      '',
      'Registrant:',
      '  Handle: R-1',
      '  Name: Registrant Org',
      '',
      'Technical:',
      '  Name: Tech Person',
      '',
      'Sponsor:',
      '  Name: Sponsor Ltd',
      '',
      'Contact:',
      '  Name: Nobody',
    ].join('\n'),
  );
});

test('an IP network: range, CIDR, names, dates, status, contacts with label addresses, nested contacts', () => {
  assert.equal(
    ipNetworkText(json('rdap.arin.net', 'ip-8.8.8.8.json')),
    [
      'NetRange: 8.8.8.0 - 8.8.8.255',
      'CIDR: 8.8.8.0/24',
      'NetName: GOGL',
      'Handle: NET-8-8-8-0-2',
      'Parent: NET-8-0-0-0-0',
      'NetType: DIRECT ALLOCATION',
      'Created: 2023-12-28T17:24:33-05:00',
      'Updated: 2023-12-28T17:24:56-05:00',
      'Status:',
      '  active',
      '',
      'Registrant:',
      '  Handle: GOGL',
      '  Name: Google LLC',
      '  Address: 1600 Amphitheatre Parkway, Mountain View, CA, 94043, United States',
      '',
      'Administrative:',
      '  Handle: ZG39-ARIN',
      '  Name: Google LLC',
      '  Org: Google LLC',
      '  Email: arin-contact@google.com',
      '  Phone: +1-650-253-0000',
      '  Address: 1600 Amphitheatre Parkway, Mountain View, CA, 94043, United States',
      '',
      'Technical:',
      '  Handle: ZG39-ARIN',
      '  Name: Google LLC',
      '  Org: Google LLC',
      '  Email: arin-contact@google.com',
      '  Phone: +1-650-253-0000',
      '  Address: 1600 Amphitheatre Parkway, Mountain View, CA, 94043, United States',
      '',
      'Abuse:',
      '  Handle: ABUSE5250-ARIN',
      '  Name: Abuse',
      '  Org: Abuse',
      '  Email: network-abuse@google.com',
      '  Phone: +1-650-253-0000',
      '  Address: 1600 Amphitheatre Parkway, Mountain View, CA, 94043, United States',
    ].join('\n'),
  );
});

test('an IP network with country and remarks: the remarks close the text, untitled ones as "Remarks"', () => {
  const text = ipNetworkText(json('rdap.db.ripe.net', 'ip-193.0.6.139.json'));
  assert.match(text, /^NetRange: 193\.0\.0\.0 - 193\.0\.7\.255\nCIDR: 193\.0\.0\.0\/21\nNetName: RIPE-NCC\n/);
  assert.match(text, /\nCountry: NL\n/);
  assert.match(
    text,
    /\n\nRegistrant:\n {2}Handle: ORG-RIEN1-RIPE\n {2}Name: Reseaux IP Europeens Network Coordination Centre \(RIPE NCC\)\n {2}Address: P\.O\. Box 10096, 1001EB, Amsterdam, NETHERLANDS\n/,
  );
  assert.ok(
    text.endsWith(
      '\n\nRemarks:\n  RIPE Network Coordination Centre\n  Amsterdam, Netherlands\n  Used for RIPE NCC infrastructure.',
    ),
  );
  assert.equal(
    ipNetworkText({
      handle: 'X',
      remarks: [{ title: 'Comment', description: ['one', 'two'] }],
      cidr0_cidrs: [{ v6prefix: '2001:db8::', length: 32 }],
    }),
    'CIDR: 2001:db8::/32\nHandle: X\n\nComment:\n  one\n  two',
  );
});

test('an object with none of the network fields gives no text, so the route can fall back to WHOIS', () => {
  assert.equal(ipNetworkText({ objectClassName: 'ip network', links: [] }), '');
});
