/**
 * deploy/kubernetes/: every file is one object, valid on its own against the
 * Kubernetes API's schemas, and together they are what docs/deploy-kubernetes.md
 * promises (two hardened replicas with the three probes, settings from a
 * ConfigMap and a Secret, a PDB, an autoscaler on CPU, a Redis, DATA_DIR on a
 * volume, the speed test's own Ingress).
 *
 * The schemas are kubernetes-models' (generated from the OpenAPI document the
 * Kubernetes API publishes, compiled with ajv; tommy351/kubernetes-models-ts,
 * released with each Kubernetes minor): an npm package that needs no cluster,
 * no download at test time and no binary, unlike kubeconform or
 * `kubectl --dry-run=server`. Version 4: 5 asks for Node 22, and the service
 * runs on Node 20 as well. Those schemas, like the API's, accept fields they
 * do not name, so a misspelt field passes them: every field this file checks
 * by value below fails on a misspelling all the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { IContainer, IPodSpec } from 'kubernetes-models/v1';
import { APP_ROOT } from '../../lib/app-root.js';
import { SECRET_SETTINGS } from '../../lib/secrets.js';
import { ConfigSchema, loadConfig } from '../../fastify.config.js';

const FOLDER = join(APP_ROOT, 'deploy/kubernetes');

// Each kind the folder may hold, by apiVersion and kind, with its validating model.
const MODELS = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
} as const;

type Manifest = { file: string; apiVersion: string; kind: string; metadata: { name: string } } & Record<string, never>;

const files = readdirSync(FOLDER)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();

/** Each file's one document, as plain data. */
const manifests: Manifest[] = files.map((file) => {
  const docs = parseAllDocuments(readFileSync(join(FOLDER, file), 'utf8'));
  assert.ok(!Array.isArray(docs) || docs.length === 1, `${file}: exactly one document`);
  const [doc] = docs;
  assert.ok(doc && doc.errors.length === 0 && doc.warnings.length === 0, `${file}: YAML without errors or warnings`);
  return { ...doc.toJS(), file };
});

function find<T>(kind: string, name: string): T {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  assert.ok(found, `a ${kind} named ${name}`);
  return found as unknown as T;
}

const web = find<Deployment>('Deployment', 'netdiag-backend');
const redis = find<Deployment>('Deployment', 'netdiag-redis');
const configMap = find<ConfigMap>('ConfigMap', 'netdiag-backend');
const secret = find<Secret>('Secret', 'netdiag-backend');
const settings = configMap.data ?? {};
const secretSettings = Object.fromEntries(
  Object.entries(secret.data ?? {}).map(([name, value]) => [name, Buffer.from(value, 'base64').toString('utf8')]),
);

const podSpec = (deployment: Deployment): IPodSpec => deployment.spec!.template.spec!;
const container = (deployment: Deployment): IContainer => podSpec(deployment).containers[0]!;
const podLabels = (deployment: Deployment) => deployment.spec!.template.metadata!.labels!;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

test('every file is one Kubernetes object, valid on its own against the API schemas, in no fixed namespace', () => {
  assert.ok(files.length >= 9, `the folder's files: ${files.join(', ')}`);
  for (const manifest of manifests) {
    const { file, ...object } = manifest;
    const Model = MODELS[`${object.apiVersion}/${object.kind}` as keyof typeof MODELS];
    assert.ok(Model, `${file}: ${object.apiVersion} ${object.kind} is a kind this folder is checked for`);
    assert.doesNotThrow(() => new Model(object as never).validate(), `${file}: valid`);
    assert.ok(object.metadata.name, `${file}: named`);
    assert.equal(
      (object.metadata as { namespace?: string }).namespace,
      undefined,
      `${file}: the namespace is the one applied to`,
    );
  }
});

test('a schema error fails validation: the check is not always true', () => {
  const broken = structuredClone(web);
  (broken.spec as { replicas: unknown }).replicas = 'two';
  assert.throws(() => new Deployment(broken).validate(), /replicas/);
});

test('the service runs two replicas, each with startup, readiness (/readyz) and liveness (/healthz) probes on the front listener', () => {
  assert.equal(web.spec!.replicas, 2);
  const c = container(web);
  const front = c.ports!.find((p) => p.name === 'front');
  assert.equal(String(front?.containerPort), settings.FRONTEND_PORT, 'the front port is FRONTEND_PORT');
  assert.equal(settings.HOST, '0.0.0.0', 'the listeners answer on the pod address, not on loopback');
  assert.equal(c.startupProbe?.httpGet?.path, '/healthz');
  assert.equal(c.readinessProbe?.httpGet?.path, '/readyz');
  assert.equal(c.livenessProbe?.httpGet?.path, '/healthz');
  for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) assert.equal(probe?.httpGet?.port, 'front');
  assert.ok(c.resources?.requests?.cpu && c.resources.requests.memory, 'CPU and memory requested');
  assert.ok(c.resources?.limits?.memory, 'memory capped');
});

test('both deployments run hardened: not root, read-only root filesystem, no privilege escalation, every capability dropped', () => {
  for (const deployment of [web, redis]) {
    const pod = podSpec(deployment);
    const c = container(deployment);
    assert.equal(pod.securityContext?.runAsNonRoot, true, `${deployment.metadata!.name}: pod runAsNonRoot`);
    assert.ok((pod.securityContext?.runAsUser ?? 0) > 0, `${deployment.metadata!.name}: a numeric non-root user`);
    assert.equal(c.securityContext?.runAsNonRoot, true);
    assert.equal(c.securityContext?.readOnlyRootFilesystem, true);
    assert.equal(c.securityContext?.allowPrivilegeEscalation, false);
    assert.deepEqual(c.securityContext?.capabilities?.drop, ['ALL']);
    assert.equal(c.securityContext?.capabilities?.add, undefined);
    assert.equal(pod.automountServiceAccountToken, false);
  }
});

test('settings come from the ConfigMap and the Secret; every credential is in the Secret and none in the ConfigMap', () => {
  const sources = container(web).envFrom ?? [];
  assert.ok(sources.some((s) => s.configMapRef?.name === configMap.metadata!.name));
  assert.ok(sources.some((s) => s.secretRef?.name === secret.metadata!.name));
  const known = Object.keys(ConfigSchema.properties);
  for (const name of [...Object.keys(settings), ...Object.keys(secretSettings)]) {
    assert.ok(known.includes(name), `${name} is a setting`);
  }
  // secretValues() also reads credentials out of these three (lib/secrets.ts).
  for (const name of [...SECRET_SETTINGS, 'GEODB_ACCOUNT_ID', 'TELEMETRY_DSN_FRONTEND', 'REDIS_URL']) {
    assert.ok(name in secretSettings, `${name} in the Secret`);
    assert.ok(!(name in settings), `${name} not in the ConfigMap`);
  }
  // Together they are settings the service starts with (REPORT_STORE=redis needs REDIS_URL, and so on).
  const config = loadConfig({ ...settings, ...secretSettings });
  assert.equal(config.REPORT_STORE, 'redis');
});

test('DATA_DIR is a volume of the pod, /tmp is writable, and the datasets keep themselves up to date', () => {
  const pod = podSpec(web);
  const mounts = container(web).volumeMounts ?? [];
  for (const path of [settings.DATA_DIR, '/tmp']) {
    const mount = mounts.find((m) => m.mountPath === path);
    assert.ok(mount && !mount.readOnly, `${path} mounted writable`);
    const volume = pod.volumes?.find((v) => v.name === mount.name);
    assert.ok(volume?.emptyDir || volume?.persistentVolumeClaim, `${path}: an emptyDir or a claim`);
  }
  assert.equal(settings.GEODB_AUTO_UPDATE, 'true');
  assert.equal(settings.ASNDATA_AUTO_UPDATE, 'true');
});

test('the Service, the budget and the autoscaler reach the service pods and no others', () => {
  const service = find<Service>('Service', 'netdiag-backend');
  assert.ok(selects(service.spec!.selector!, podLabels(web)));
  assert.ok(!selects(service.spec!.selector!, podLabels(redis)));
  assert.equal(service.spec!.ports![0]!.targetPort, 'front');

  const pdb = find<PodDisruptionBudget>('PodDisruptionBudget', 'netdiag-backend');
  assert.ok(selects(pdb.spec!.selector!.matchLabels!, podLabels(web)));
  assert.ok(!selects(pdb.spec!.selector!.matchLabels!, podLabels(redis)));
  assert.ok(Number(pdb.spec!.minAvailable) >= 1 && Number(pdb.spec!.minAvailable) < web.spec!.replicas!);

  const hpa = find<HorizontalPodAutoscaler>('HorizontalPodAutoscaler', 'netdiag-backend');
  assert.deepEqual(
    { kind: hpa.spec!.scaleTargetRef.kind, name: hpa.spec!.scaleTargetRef.name },
    { kind: 'Deployment', name: 'netdiag-backend' },
  );
  assert.ok(hpa.spec!.minReplicas! >= 2 && hpa.spec!.maxReplicas > hpa.spec!.minReplicas!);
  const [metric] = hpa.spec!.metrics ?? [];
  assert.equal(metric?.type, 'Resource');
  assert.equal(metric?.resource?.name, 'cpu');
  assert.equal(metric?.resource?.target.type, 'Utilization');
});

test('REDIS_URL names the Redis Service, which reaches the Redis deployment', () => {
  const url = new URL(secretSettings.REDIS_URL!);
  const service = find<Service>('Service', url.hostname);
  assert.ok(selects(service.spec!.selector!, podLabels(redis)));
  assert.ok(!selects(service.spec!.selector!, podLabels(web)));
  const port = service.spec!.ports!.find((p) => p.port === Number(url.port || 6379));
  assert.ok(port, 'the URL port is the Service port');
  const target = container(redis).ports!.find((p) => p.name === port.targetPort || p.containerPort === port.targetPort);
  assert.equal(target?.containerPort, 6379);
});

test('only the service pods may reach Redis, which has no password', () => {
  const policy = find<NetworkPolicy>('NetworkPolicy', 'netdiag-redis');
  assert.ok(selects(policy.spec!.podSelector!.matchLabels!, podLabels(redis)));
  assert.ok(!selects(policy.spec!.podSelector!.matchLabels!, podLabels(web)));
  assert.deepEqual(policy.spec!.policyTypes, ['Ingress']);
  const [rule, ...others] = policy.spec!.ingress!;
  assert.equal(others.length, 0);
  const [peer, ...otherPeers] = rule!.from!;
  assert.equal(otherPeers.length, 0);
  assert.ok(selects(peer!.podSelector!.matchLabels!, podLabels(web)));
  assert.equal(peer!.namespaceSelector, undefined, 'pods of this namespace only');
  assert.deepEqual(rule!.ports, [{ protocol: 'TCP', port: 6379 }]);
});

test("the speed test's Ingress passes transfers unbuffered with SPEEDTEST_UPLOAD_MAX_BYTES as its body cap", () => {
  const speed = find<Ingress>('Ingress', 'netdiag-backend-speed');
  const paths = speed.spec!.rules!.flatMap((rule) => rule.http!.paths.map((p) => p.path));
  assert.deepEqual(paths, ['/speed/']);
  const annotations = speed.metadata!.annotations!;
  assert.equal(annotations['nginx.ingress.kubernetes.io/proxy-request-buffering'], 'off');
  assert.equal(annotations['nginx.ingress.kubernetes.io/proxy-buffering'], 'off');
  // nginx's size syntax: plain bytes, or k, m, g for binary multiples.
  const size = /^(\d+)([kmg]?)$/i.exec(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '');
  assert.ok(size, 'a body size nginx reads');
  const bytes = Number(size[1]) * 1024 ** ' kmg'.indexOf(size[2]!.toLowerCase() || ' ');
  assert.equal(
    bytes,
    loadConfig({}).SPEEDTEST_UPLOAD_MAX_BYTES,
    'the same cap as the service, so both change together',
  );
});
