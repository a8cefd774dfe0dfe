-- Several append flows into one table (semantics.md §10.1, §10.2): each with a name of its own and its
-- own checkpoint; the table's columns are the union of the flows' columns BY NAME, NULL where a flow has none.
CREATE OR REFRESH STREAMING TABLE all_orders;

CREATE FLOW from_web AS INSERT INTO all_orders BY NAME
SELECT order_id, customer, total, 'web' AS channel FROM STREAM(web_orders);

CREATE FLOW from_shops AS INSERT INTO all_orders BY NAME
SELECT store, total, order_id FROM STREAM(shop_orders);
