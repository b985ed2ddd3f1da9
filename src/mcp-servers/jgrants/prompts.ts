/** The two prompts and the guidelines resource of the official server (same names; our own wording). */

/** Prompt `subsidy_search_guide`: how to search well. */
export const SUBSIDY_SEARCH_GUIDE = `
# jGrants補助金検索ガイド

## 検索のコツ
1. **キーワード**: 2文字以上で、スペースを含まない語を使います。「補助金」「助成金」「事業」など、いくつかの語を試してください
2. **絞り込み**: 利用目的・業種・従業員数・地域で絞り込むと精度が上がります。複数の値は「 / 」（半角スペース・スラッシュ・半角スペース）で区切ります
3. **地域**: 「東京都」で絞り込むと、対象地域に東京都を含む補助金だけが返ります。全国対象も含めるときは「東京都 / 全国」と指定します
4. **締切**: 募集終了日時（UTC）を日本時間に直して必ず確認してください

## データ利用時の注意
- 出典表示: 「Jグランツ（jGrants）からの出典」である旨を明記してください
- 最新情報: 申請前に公式サイト https://www.jgrants-portal.go.jp/ で確認してください
- API への配慮: 短時間の大量アクセスは避けてください

## おすすめの手順
1. 広いキーワード（例: "事業"）で検索する
2. 結果を見て絞り込み条件を足す
3. 気になる補助金は get_subsidy_detail で詳細を取得する
4. 添付ファイル（公募要領など）は get_file_content で内容を確認する
`;

/** Prompt `api_usage_agreement`: what users agree to before searching. */
export const API_USAGE_AGREEMENT = `
# jGrants API 利用同意事項

## 次の点にご同意いただけますか？

1. **出典表示**
   - 取得した情報を公開するときは「Jグランツ（jGrants）」からの出典である旨を明記します

2. **情報の確認**
   - 取得した情報は参考情報として扱い、申請前に公式サイトで最新の内容を確認します

3. **適切な利用**
   - API に短時間で大量のアクセスをせず、サーバーに負荷をかけないようにします

4. **個人情報・企業情報の取り扱い**
   - 補助金申請に関わる個人情報や企業情報を適切に管理します

これらに同意のうえで、補助金の検索を始めてください。
`;

/** Resource `jgrants://guidelines`. */
export const USAGE_GUIDELINES = `jGrants MCP サーバー利用ガイドライン

【重要な注意事項】
- 本サーバーは jGrants 公開API（またはオフライン用に同梱したスナップショット）を使います
- 取得した情報には出典（Jグランツ）を必ず表示してください
- 結果の data_source がスナップショットを示すときは、その日付時点のデータです
- 申請前に必ず公式サイトで最新情報を確認してください

【おすすめの検索手順】
1. 広いキーワードから始める: search_subsidies(keyword="事業")
2. 条件を足して絞り込む: industry, target_area_search など
3. 全体の状況を見る: get_subsidy_overview()
4. 詳細を取得する: get_subsidy_detail(subsidy_id)

【API 利用について】
- 連続した大量アクセスは避けてください
- エラーのときは時間を置いて再試行してください
`;
