import { onBeforeUnmount, onMounted, ref } from 'vue';
import { signIn } from './account';

/**
 * A "Sign in" button's state: `busy` while the browser leaves for the
 * provider, `failed` when the provider could not be reached. Shared by the
 * header and the private tools' "sign in required", which start the same
 * sign-in.
 */
export function useSignIn() {
  const busy = ref(false);
  const failed = ref(false);

  async function start(back: string): Promise<void> {
    busy.value = true;
    failed.value = false;
    try {
      await signIn(back);
    } catch {
      failed.value = true;
      busy.value = false;
    }
  }

  // Back from the provider's page with the browser's Back button, the page comes
  // from the back-forward cache as it was left: "Opening the sign-in page…".
  function restored(event: PageTransitionEvent): void {
    if (event.persisted) busy.value = false;
  }
  onMounted(() => window.addEventListener('pageshow', restored));
  onBeforeUnmount(() => window.removeEventListener('pageshow', restored));

  return { busy, failed, start };
}
