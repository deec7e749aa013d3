import './theme-start';
import { createApp } from 'vue';
import App from './App.vue';
import { router } from './router';
import { reloadOnStaleBuild } from './lib/stale-build';
import { i18n, startLocale } from './i18n';
import { startTelemetry } from './telemetry/start-telemetry';
import './styles.css';

const app = createApp(App);
startTelemetry(app);
reloadOnStaleBuild(router);
void startLocale().then(() => {
  app.use(router).use(i18n).mount('#app');
});
