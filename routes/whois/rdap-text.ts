/**
 * RDAP JSON (RFC 9083) written out as WHOIS-like text, for the `__raw` the
 * site shows: one `Label: value` line per field, indented lists, and a
 * blank-line-separated block per contact, grouped by role.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A field's value as text: a number written out, a string trimmed; undefined when there is none. */
function fieldText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const DOMAIN_ROLES = ['registrar', 'registrant', 'administrative', 'technical', 'abuse', 'reseller'];
const IP_ROLES = ['registrant', 'administrative', 'technical', 'abuse', 'noc', 'routing'];

/** The first date of each event action. */
function events(data: Json): Map<string, string> {
  const dates = new Map<string, string>();
  for (const event of list(data.events)) {
    if (!isObject(event)) continue;
    const action = fieldText(event.eventAction);
    const date = fieldText(event.eventDate);
    if (action && date && !dates.has(action)) dates.set(action, date);
  }
  return dates;
}

/** A vCard value as one line: structured values (org, adr) flattened, empty parts dropped. */
function flatten(value: unknown): string {
  if (Array.isArray(value)) return value.map(flatten).filter(Boolean).join(', ');
  return fieldText(value) ?? '';
}

/** Each vCard property of a jCard (RFC 7095) as display text, by property name. */
function vcard(entity: Json): Map<string, string[]> {
  const props = new Map<string, string[]>();
  for (const prop of list(list(entity.vcardArray)[1])) {
    if (!Array.isArray(prop) || typeof prop[0] !== 'string') continue;
    const [name, params, , value] = prop as [string, unknown, unknown, unknown];
    let shown = flatten(value);
    // An address often comes only as its label parameter, the components left empty.
    if (!shown && name === 'adr' && isObject(params)) shown = flatten(fieldText(params.label)?.split(/\r?\n/));
    if (name === 'tel') shown = shown.replace(/^tel:/i, '');
    if (!shown) continue;
    props.set(name, [...(props.get(name) ?? []), shown]);
  }
  return props;
}

function entityLines(entity: Json): string[] {
  const card = vcard(entity);
  const lines: string[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value) lines.push(`  ${label}: ${value}`);
  };
  add('Handle', fieldText(entity.handle));
  add('Name', card.get('fn')?.[0]);
  add('Org', card.get('org')?.[0]);
  add('Email', card.get('email')?.join(', '));
  add('Phone', card.get('tel')?.join(', '));
  add('Address', card.get('adr')?.[0]);
  return lines;
}

/**
 * One block per entity and role, the roles of `order` first and any others
 * after in the order met; contacts nested inside an entity (RDAP nests a
 * registrar's abuse contact in it) get blocks of their own.
 */
function entityBlocks(data: Json, order: string[]): string[] {
  const byRole = new Map<string, Json[]>(order.map((role) => [role, []]));
  const walk = (entities: unknown) => {
    for (const entity of list(entities)) {
      if (!isObject(entity)) continue;
      const roles = list(entity.roles).filter((r): r is string => typeof r === 'string' && r !== '');
      for (const role of roles.length ? roles : ['contact']) {
        const members = byRole.get(role) ?? [];
        if (!members.includes(entity)) members.push(entity);
        byRole.set(role, members);
      }
      walk(entity.entities);
    }
  };
  walk(data.entities);
  const lines: string[] = [];
  for (const [role, entities] of byRole) {
    for (const entity of entities) lines.push('', `${role[0]!.toUpperCase()}${role.slice(1)}:`, ...entityLines(entity));
  }
  return lines;
}

function statusLines(data: Json): string[] {
  const statuses = list(data.status)
    .map(fieldText)
    .filter((s): s is string => s !== undefined);
  return statuses.length ? ['Status:', ...statuses.map((s) => `  ${s}`)] : [];
}

function labelled(pairs: Array<[label: string, value: string | undefined]>): string[] {
  return pairs.filter(([, value]) => value !== undefined).map(([label, value]) => `${label}: ${value}`);
}

/** An RDAP domain object as text; `query` names the domain when the object does not. */
export function domainText(data: Json, query: string): string {
  const ldhName = fieldText(data.ldhName);
  const unicodeName = fieldText(data.unicodeName);
  const dates = events(data);
  const lines = labelled([
    ['Domain Name', ldhName ?? unicodeName ?? query],
    [
      'Unicode Name',
      unicodeName && unicodeName.toLowerCase() !== (ldhName ?? '').toLowerCase() ? unicodeName : undefined,
    ],
    ['Registry Domain ID', fieldText(data.handle)],
    ['Created', dates.get('registration')],
    ['Updated', dates.get('last changed')],
    ['Expires', dates.get('expiration')],
    ['RDAP Last Refresh', dates.get('last update of RDAP database')],
  ]);
  lines.push(...statusLines(data), ...entityBlocks(data, DOMAIN_ROLES));
  const nameservers = list(data.nameservers)
    .map((ns) => (isObject(ns) ? (fieldText(ns.ldhName) ?? fieldText(ns.unicodeName)) : undefined))
    .filter((ns): ns is string => ns !== undefined);
  if (nameservers.length) lines.push('', 'Name Servers:', ...nameservers.map((ns) => `  ${ns}`));
  if (isObject(data.secureDNS)) {
    lines.push('', `DNSSEC: ${data.secureDNS.delegationSigned === true ? 'signed' : 'unsigned'}`);
  }
  return lines.join('\n');
}

/** An RDAP IP network object as text, in the field names of the registries' port-43 answers; empty when it holds none of them. */
export function ipNetworkText(data: Json): string {
  const start = fieldText(data.startAddress);
  const end = fieldText(data.endAddress);
  const cidrs: string[] = [];
  for (const cidr of list(data.cidr0_cidrs)) {
    if (!isObject(cidr)) continue;
    const prefix = fieldText(cidr.v4prefix) ?? fieldText(cidr.v6prefix);
    const length = fieldText(cidr.length);
    if (prefix && length) cidrs.push(`${prefix}/${length}`);
  }
  const dates = events(data);
  const lines = labelled([
    ['NetRange', start && end ? `${start} - ${end}` : undefined],
    ['CIDR', cidrs.length ? cidrs.join(', ') : undefined],
    ['NetName', fieldText(data.name)],
    ['Handle', fieldText(data.handle)],
    ['Parent', fieldText(data.parentHandle)],
    ['NetType', fieldText(data.type)],
    ['Country', fieldText(data.country)],
    ['Created', dates.get('registration')],
    ['Updated', dates.get('last changed')],
  ]);
  lines.push(...statusLines(data), ...entityBlocks(data, IP_ROLES));
  for (const remark of list(data.remarks)) {
    if (!isObject(remark)) continue;
    const description = list(remark.description)
      .map(fieldText)
      .filter((d): d is string => d !== undefined);
    lines.push('', `${fieldText(remark.title) ?? 'Remarks'}:`, ...description.map((d) => `  ${d}`));
  }
  return lines.join('\n');
}
