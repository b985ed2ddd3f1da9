/** Example questions offered as quick replies (welcome, guidance, help and after 履歴を消して). */
export const EXAMPLE_QUESTIONS = [
  "東京都でIT導入の補助金",
  "製造業の設備投資に使える補助金",
  "締切が近い創業の補助金",
  "従業員5人の飲食店の販路開拓",
];
