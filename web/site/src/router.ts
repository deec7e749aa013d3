import { createRouter, createWebHistory, START_LOCATION, type RouteLocationNormalized } from 'vue-router';
import { FEATURES } from './features/registry';
import { withStrings } from './features/strings';

// Every page but the first is its own chunk, fetched with its texts when visited.
export const router = createRouter({
  history: createWebHistory(),
  routes: FEATURES.map((feature) => ({
    path: feature.path,
    name: feature.name,
    component: withStrings(feature.page, feature.folder, feature.name, feature.uses),
    meta: { title: feature.title ?? `${feature.name}.title` },
  })),
  // A first load is already at the top: scrolling there would only force an early layout.
  scrollBehavior: (to, from, saved) => saved ?? (from === START_LOCATION || to.path === from.path ? false : { top: 0 }),
});

// Speed device (Lighthouse on a phone, total blocking time; docs/performance.md, the register): the first page
// renders in a task after the frame's, not in one task with it. Each half stays near Lighthouse's 50 ms (at its 4x
// slower CPU) where the whole was a long task of 180-260 ms on /. Later navigations wait for nothing.
const stopYielding = router.beforeResolve(() => {
  stopYielding();
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
});

export function titleKey(route: RouteLocationNormalized): string {
  return typeof route.meta.title === 'string' ? route.meta.title : 'home.title';
}
