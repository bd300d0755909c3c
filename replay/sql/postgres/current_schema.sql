-- current_schema: the schema this connection's tables are in (the first of its search_path that exists).
-- parameters: none
-- output: current_schema
SELECT current_schema();
