import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import RunnableExample from './RunnableExample.vue';
import 'katex/dist/katex.min.css';
import './custom.css';

/** The default theme plus the editable, runnable examples (` ```js example ` blocks). */
const theme: Theme = {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('RunnableExample', RunnableExample);
  },
};

export default theme;
