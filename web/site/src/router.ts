import { createRouter, createWebHistory, START_LOCATION, type RouteLocationNormalized } from 'vue-router';
import HomePage from './pages/HomePage.vue';

// Every page but the first is its own chunk, fetched when visited.
export const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', name: 'home', component: HomePage, meta: { title: 'home.title' } },
    { path: '/ip/:address', name: 'ip', component: () => import('./pages/IpPage.vue'), meta: { title: 'ip.title' } },
    { path: '/whois', name: 'whois', component: () => import('./pages/WhoisPage.vue'), meta: { title: 'whois.title' } },
    { path: '/dns', name: 'dns', component: () => import('./pages/DnsPage.vue'), meta: { title: 'dns.title' } },
    { path: '/mac/:mac?', name: 'mac', component: () => import('./pages/MacPage.vue'), meta: { title: 'mac.title' } },
    { path: '/asn/:asn', name: 'asn', component: () => import('./pages/AsnPage.vue'), meta: { title: 'asn.title' } },
    // A prefix keeps its slash: /prefix/8.8.8.0/24. The last segment (the
    // length) has no file extension, so the front listener answers index.html.
    {
      path: '/prefix/:address/:length',
      name: 'prefix',
      component: () => import('./pages/PrefixPage.vue'),
      meta: { title: 'prefix.title' },
    },
    {
      path: '/censorship',
      name: 'censorship',
      component: () => import('./pages/CensorshipPage.vue'),
      meta: { title: 'censorship.title' },
    },
    {
      path: '/status',
      name: 'status',
      component: () => import('./pages/StatusPage.vue'),
      meta: { title: 'status.title' },
    },
    {
      path: '/outages',
      name: 'outages',
      component: () => import('./pages/OutagesPage.vue'),
      meta: { title: 'outages.title' },
    },
    {
      path: '/r/:id',
      name: 'report',
      component: () => import('./pages/ReportPage.vue'),
      meta: { title: 'report.title' },
    },
    {
      path: '/:rest(.*)*',
      name: 'notFound',
      component: () => import('./pages/NotFoundPage.vue'),
      meta: { title: 'notFound.title' },
    },
  ],
  // A first load is already at the top: scrolling there would only force an early layout.
  scrollBehavior: (to, from, saved) => saved ?? (from === START_LOCATION || to.path === from.path ? false : { top: 0 }),
});

export function titleKey(route: RouteLocationNormalized): string {
  return typeof route.meta.title === 'string' ? route.meta.title : 'home.title';
}
