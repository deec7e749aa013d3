import './theme-start';
import { createApp } from 'vue';
import App from './App.vue';
import { router } from './router';
import { reloadOnStaleBuild } from './lib/stale-build';
import { i18n, startLocale } from './i18n';
import { startTelemetry } from './telemetry/start-telemetry';
import { nextTask } from './lib/next-task';
import './styles.css';

const app = createApp(App);
startTelemetry(app);
reloadOnStaleBuild(router);
// The frame renders in a task after the script's evaluation (lib/next-task.ts says why).
void startLocale()
  .then(nextTask)
  .then(() => {
    app.use(router).use(i18n).mount('#app');
  });
