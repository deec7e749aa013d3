/**
 * The sites the connectivity test probes: the defaults every visitor starts
 * with, and the lists a visitor can add as a group (MyIP 7.4.0's import lists,
 * web/site/README.md). Each site is probed at its favicon; a site is its host and the
 * brand people know it by.
 */
export interface Site {
  /** Unique among the targets: a default's short id, else the host. */
  id: string;
  name: string;
  url: string;
}

const site = (host: string, name: string): Site => ({ id: host, name, url: `https://${host}/favicon.ico` });

export const DEFAULT_SITES: readonly Site[] = [
  { id: 'google', name: 'Google', url: 'https://www.google.com/favicon.ico' },
  { id: 'youtube', name: 'YouTube', url: 'https://www.youtube.com/favicon.ico' },
  { id: 'github', name: 'GitHub', url: 'https://github.com/favicon.ico' },
  // Cloudflare's www site answers with preload headers that make noise in the console; its speed site does not.
  { id: 'cloudflare', name: 'Cloudflare', url: 'https://speed.cloudflare.com/favicon.ico' },
  { id: 'claude', name: 'Claude', url: 'https://claude.com/favicon.ico' },
  { id: 'chatgpt', name: 'ChatGPT', url: 'https://chatgpt.com/favicon.ico' },
  { id: 'wechat', name: 'WeChat', url: 'https://res.wx.qq.com/a/wx_fed/assets/res/NTI4MWU5.ico' },
];

/**
 * The operator's first list (CONNECTIVITY_TARGETS, read from the site's
 * settings) in place of the reference's: a stand-in on the operator's network, or
 * the sites their visitors care about. Empty: the reference's.
 */
export function firstSites(operator: ReadonlyArray<{ name: string; url: string }>): readonly Site[] {
  return operator.length ? operator.map(({ name, url }, i) => ({ id: `site-${i + 1}`, name, url })) : DEFAULT_SITES;
}

const byId = (id: string): Site => DEFAULT_SITES.find((s) => s.id === id)!;

/** The groups a visitor can add, in the order offered; each name is `connectivity.group.<id>`. */
export const SITE_GROUPS: Readonly<Record<string, readonly Site[]>> = {
  defaults: DEFAULT_SITES,
  ai: [
    byId('claude'),
    byId('chatgpt'),
    site('gemini.google.com', 'Gemini'),
    site('chat.deepseek.com', 'DeepSeek'),
    site('huggingface.co', 'Hugging Face'),
    site('www.midjourney.com', 'Midjourney'),
    site('suno.com', 'Suno'),
    site('manus.im', 'Manus'),
    site('chat.mistral.ai', 'Mistral'),
    site('www.meta.ai', 'Meta AI'),
    site('chat.qwen.ai', 'Qwen'),
    site('www.kimi.com', 'Kimi'),
    site('poe.com', 'Poe'),
    site('character.ai', 'Character.AI'),
  ],
  social: [
    site('telegram.org', 'Telegram'),
    site('whatsapp.com', 'WhatsApp'),
    site('www.instagram.com', 'Instagram'),
    site('x.com', 'X'),
    site('discord.com', 'Discord'),
    site('signal.org', 'Signal'),
    site('www.facebook.com', 'Facebook'),
    site('www.reddit.com', 'Reddit'),
    site('www.threads.com', 'Threads'),
    site('line.me', 'LINE'),
    site('www.viber.com', 'Viber'),
    site('www.snapchat.com', 'Snapchat'),
  ],
  streaming: [
    byId('youtube'),
    site('www.netflix.com', 'Netflix'),
    site('open.spotify.com', 'Spotify'),
    site('www.tiktok.com', 'TikTok'),
    site('www.twitch.tv', 'Twitch'),
    site('www.primevideo.com', 'Prime Video'),
    site('www.disneyplus.com', 'Disney+'),
    site('www.hbomax.com', 'HBO Max'),
    site('tv.apple.com', 'Apple TV+'),
    site('soundcloud.com', 'SoundCloud'),
    site('vimeo.com', 'Vimeo'),
    site('www.dailymotion.com', 'Dailymotion'),
  ],
  gaming: [
    site('store.steampowered.com', 'Steam'),
    site('store.epicgames.com', 'Epic Games Store'),
    site('www.playstation.com', 'PlayStation'),
    site('www.xbox.com', 'Xbox'),
    site('www.riotgames.com', 'Riot Games'),
    site('www.nintendo.com', 'Nintendo'),
    site('www.ea.com', 'EA'),
    site('www.ubisoft.com', 'Ubisoft'),
    site('www.blizzard.com', 'Battle.net'),
    site('www.rockstargames.com', 'Rockstar Games'),
    site('www.roblox.com', 'Roblox'),
    site('itch.io', 'itch.io'),
  ],
  developer: [
    byId('github'),
    site('registry.npmjs.org', 'npm'),
    site('hub.docker.com', 'Docker Hub'),
    site('stackoverflow.com', 'Stack Overflow'),
    site('pypi.org', 'PyPI'),
    site('gitlab.com', 'GitLab'),
    site('bitbucket.org', 'Bitbucket'),
    site('crates.io', 'crates.io'),
    site('repo.maven.apache.org', 'Maven Central'),
    site('proxy.golang.org', 'Go Proxy'),
    site('brew.sh', 'Homebrew'),
    site('www.jetbrains.com', 'JetBrains'),
    site('marketplace.visualstudio.com', 'VS Code Marketplace'),
  ],
  cloud: [
    byId('cloudflare'),
    site('aws.amazon.com', 'AWS'),
    site('azure.microsoft.com', 'Azure'),
    site('cloud.google.com', 'Google Cloud'),
    site('vercel.com', 'Vercel'),
    site('www.netlify.com', 'Netlify'),
    site('www.digitalocean.com', 'DigitalOcean'),
    site('www.oracle.com', 'Oracle Cloud'),
    site('www.akamai.com', 'Akamai'),
    site('www.fastly.com', 'Fastly'),
    site('cdn.jsdelivr.net', 'jsDelivr'),
    site('unpkg.com', 'unpkg'),
    site('www.heroku.com', 'Heroku'),
  ],
  news: [
    site('www.bbc.com', 'BBC'),
    site('www.reuters.com', 'Reuters'),
    site('apnews.com', 'AP News'),
    site('edition.cnn.com', 'CNN'),
    site('www.nytimes.com', 'The New York Times'),
    site('www.theguardian.com', 'The Guardian'),
    site('www.dw.com', 'DW'),
    site('www.aljazeera.com', 'Al Jazeera'),
    site('www.france24.com', 'France 24'),
    site('www.bloomberg.com', 'Bloomberg'),
    site('www.wikipedia.org', 'Wikipedia'),
  ],
  ecommerce: [
    site('www.amazon.com', 'Amazon'),
    site('www.aliexpress.com', 'AliExpress'),
    site('www.temu.com', 'Temu'),
    site('www.shein.com', 'SHEIN'),
    site('www.alibaba.com', 'Alibaba'),
    site('www.ebay.com', 'eBay'),
    site('www.etsy.com', 'Etsy'),
    site('www.shopify.com', 'Shopify'),
    site('www.walmart.com', 'Walmart'),
    site('shopee.com', 'Shopee'),
    site('www.mercadolibre.com', 'Mercado Libre'),
    site('www.rakuten.co.jp', 'Rakuten'),
  ],
  crypto: [
    site('www.binance.com', 'Binance'),
    site('www.coinbase.com', 'Coinbase'),
    site('www.okx.com', 'OKX'),
    site('www.kraken.com', 'Kraken'),
    site('www.bybit.com', 'Bybit'),
    site('www.kucoin.com', 'KuCoin'),
    site('www.gate.io', 'Gate.io'),
    site('www.bitget.com', 'Bitget'),
    site('www.htx.com', 'HTX'),
    site('www.mexc.com', 'MEXC'),
    site('coinmarketcap.com', 'CoinMarketCap'),
    site('www.coingecko.com', 'CoinGecko'),
  ],
  china: [
    byId('wechat'),
    site('www.baidu.com', 'Baidu'),
    site('www.taobao.com', 'Taobao'),
    site('www.bilibili.com', 'Bilibili'),
    site('im.qq.com', 'QQ'),
    site('www.douyin.com', 'Douyin'),
    site('www.zhihu.com', 'Zhihu'),
    site('www.jd.com', 'JD.com'),
    site('weibo.com', 'Weibo'),
    site('www.163.com', 'NetEase'),
    site('www.xiaohongshu.com', 'Xiaohongshu'),
    site('www.douban.com', 'Douban'),
  ],
  russia: [
    site('yandex.ru', 'Yandex'),
    site('vk.com', 'VK'),
    site('www.gosuslugi.ru', 'Gosuslugi'),
    site('www.ozon.ru', 'Ozon'),
    site('mail.ru', 'Mail.ru'),
    site('rutube.ru', 'Rutube'),
    site('www.wildberries.ru', 'Wildberries'),
    site('www.avito.ru', 'Avito'),
    site('www.kinopoisk.ru', 'Kinopoisk'),
    site('2gis.ru', '2GIS'),
    site('dzen.ru', 'Dzen'),
  ],
  iran: [
    site('www.aparat.com', 'Aparat'),
    site('www.digikala.com', 'Digikala'),
    site('divar.ir', 'Divar'),
    site('cafebazaar.ir', 'Cafe Bazaar'),
    site('balad.ir', 'Balad'),
    site('www.filimo.com', 'Filimo'),
    site('torob.com', 'Torob'),
    site('www.zarinpal.com', 'ZarinPal'),
    site('rubika.ir', 'Rubika'),
    site('eitaa.com', 'Eitaa'),
  ],
  brazil: [
    site('www.globo.com', 'Globo'),
    site('www.uol.com.br', 'UOL'),
    site('www.gov.br', 'gov.br'),
    site('www.mercadolivre.com.br', 'Mercado Livre'),
    site('www.magazineluiza.com.br', 'Magalu'),
    site('www.americanas.com.br', 'Americanas'),
    site('www.ifood.com.br', 'iFood'),
    site('www.olx.com.br', 'OLX Brasil'),
    site('nubank.com.br', 'Nubank'),
    site('picpay.com', 'PicPay'),
    site('www.serasa.com.br', 'Serasa'),
    site('www.reclameaqui.com.br', 'Reclame Aqui'),
  ],
};
