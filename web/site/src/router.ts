import { createRouter, createWebHistory, START_LOCATION, type RouteLocationNormalized } from 'vue-router';
import { FEATURES } from './features/registry';
import { withStrings } from './features/strings';
import { nextTask } from './lib/next-task';

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

// The first page renders in a task after the frame's (lib/next-task.ts says why); later navigations wait for nothing.
const stopYielding = router.beforeResolve(() => {
  stopYielding();
  return nextTask();
});

export function titleKey(route: RouteLocationNormalized): string {
  return typeof route.meta.title === 'string' ? route.meta.title : 'home.title';
}
