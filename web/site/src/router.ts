import {
  createRouter,
  createWebHistory,
  START_LOCATION,
  type RouteLocationNormalized,
  type RouteRecordSingleView,
} from 'vue-router';
import HomePage from './pages/HomePage.vue';
import { TOOLS } from './tools/registry';
import { loadToolStrings } from './tools/strings';

/** A page at `path`, titled by the `<name>.title` message. */
const page = (path: string, name: string, component: RouteRecordSingleView['component']) => ({
  path,
  name,
  component,
  meta: { title: `${name}.title` },
});

// Every page but the first is its own chunk, fetched when visited.
export const router = createRouter({
  history: createWebHistory(),
  routes: [
    page('/', 'home', HomePage),
    page('/ip/:address', 'ip', () => import('./pages/IpPage.vue')),
    page('/whois', 'whois', () => import('./pages/WhoisPage.vue')),
    page('/dns', 'dns', () => import('./pages/DnsPage.vue')),
    page('/mac/:mac?', 'mac', () => import('./pages/MacPage.vue')),
    page('/asn/:asn', 'asn', () => import('./pages/AsnPage.vue')),
    // A prefix keeps its slash: /prefix/8.8.8.0/24. The last segment (the
    // length) has no file extension, so the front listener answers index.html.
    page('/prefix/:address/:length', 'prefix', () => import('./pages/PrefixPage.vue')),
    page('/censorship', 'censorship', () => import('./pages/CensorshipPage.vue')),
    page('/status', 'status', () => import('./pages/StatusPage.vue')),
    page('/outages', 'outages', () => import('./pages/OutagesPage.vue')),
    page('/history', 'history', () => import('./pages/HistoryPage.vue')),
    // A tool's page arrives with its texts; its title is its navigation label.
    ...TOOLS.map((tool) => ({
      path: `/${tool.slug}`,
      name: tool.slug,
      component: () => Promise.all([tool.page(), loadToolStrings(tool.slug)]).then(([page]) => page),
      meta: { title: `nav.${tool.slug}` },
    })),
    page('/reference', 'reference', () => import('./pages/ReferencePage.vue')),
    page('/privacy', 'privacy', () => import('./pages/PrivacyPage.vue')),
    page('/profile', 'profile', () => import('./pages/ProfilePage.vue')),
    page('/signed-in', 'signedIn', () => import('./pages/SignedInPage.vue')),
    page('/r/:id', 'report', () => import('./pages/ReportPage.vue')),
    page('/:rest(.*)*', 'notFound', () => import('./pages/NotFoundPage.vue')),
  ],
  // A first load is already at the top: scrolling there would only force an early layout.
  scrollBehavior: (to, from, saved) => saved ?? (from === START_LOCATION || to.path === from.path ? false : { top: 0 }),
});

export function titleKey(route: RouteLocationNormalized): string {
  return typeof route.meta.title === 'string' ? route.meta.title : 'home.title';
}
