import './theme-start';
import { createApp } from 'vue';
import App from './App.vue';
import { router } from './router';
import { i18n, startLocale } from './i18n';
import './styles.css';

void startLocale().then(() => {
  createApp(App).use(router).use(i18n).mount('#app');
});
