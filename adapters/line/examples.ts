/** Example questions offered as quick replies (welcome, guidance, help and after 履歴を消して). */
export const EXAMPLE_QUESTIONS = [
  "東京都のIT導入補助金",
  "製造業の設備投資に使える補助金",
  "締切が近い補助金を教えて",
  "従業員5人の飲食店向けの助成金",
];
