/* global self */
// The address watch's notices (features/watch/): the service worker imports
// this, so a change reaches the visitor with the site closed. The server sends
// {event, address, network, country, previous, at} (routes/watch/README.md).
// The worker cannot read the page's chosen language: the browser's own picks the title.
const TITLES = {
  en: 'Your address changed',
  fr: 'Votre adresse a changé',
  ru: 'Ваш адрес изменился',
  zh: '您的地址已变化',
};
const title = () => TITLES[(self.navigator.language || 'en').slice(0, 2)] || TITLES.en;

self.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = {};
  }
  const body = [notice.address, notice.network, notice.country].filter(Boolean).join(' · ');
  event.waitUntil(self.registration.showNotification(title(), { body, tag: 'address-watch', data: '/watch' }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data || '/watch'));
});
