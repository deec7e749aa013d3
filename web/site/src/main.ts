import { createApp } from 'vue';
import App from './App.vue';
import { router } from './router';
import { i18n, startLocale } from './i18n';
import { prepareCountryNames } from './lib/country';
import './styles.css';

void startLocale().then(() => {
  prepareCountryNames(i18n.global.locale.value);
  createApp(App).use(router).use(i18n).mount('#app');
});
