CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`land-customers__source_daefb6ddec18` (
  `customer_id` BIGINT NOT NULL,
  `name` STRING,
  `email` STRING,
  `address` ROW<`city` STRING, `country` STRING>,
  `points` INT,
  `updated_at` TIMESTAMP_LTZ(3)
) WITH (
  'connector' = 'kafka',
  'topic' = 'dbserver1.crm.customers',
  'properties.bootstrap.servers' = 'kafka:9092',
  'properties.group.id' = 'crm-customers-v1',
  'scan.startup.mode' = 'earliest-offset',
  'value.format' = 'debezium-json',
  'value.debezium-json.ignore-parse-errors' = 'false',
  'value.debezium-json.schema-include' = 'false'
);

CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`land-customers__sink_b165b75344b4` (
  `customer_id` BIGINT NOT NULL,
  `name` STRING,
  `email` STRING,
  `country` STRING,
  `points` BIGINT,
  `updated_at` TIMESTAMP_LTZ(3),
  PRIMARY KEY (`customer_id`) NOT ENFORCED
) WITH (
  'connector' = 'iceberg',
  'catalog-name' = 'fluid_iceberg',
  'catalog-type' = 'rest',
  'uri' = 'https://catalog.example.com/api/catalog',
  'warehouse' = 's3://lake/warehouse',
  'io-impl' = 'org.apache.iceberg.aws.s3.S3FileIO',
  's3.endpoint' = 'https://s3.example.com',
  's3.path-style-access' = 'true',
  'catalog-database' = 'crm',
  'catalog-table' = 'customers',
  'format-version' = '2',
  'write.format.default' = 'parquet',
  'write.upsert.enabled' = 'true'
);

INSERT INTO `_env_flink-env1`.`default`.`land-customers__sink_b165b75344b4` (`customer_id`, `name`, `email`, `country`, `points`, `updated_at`)
SELECT `fluid_query`.`customer_id`, `fluid_query`.`name`, `fluid_query`.`email`, `fluid_query`.`country`, `fluid_query`.`points`, CAST(`fluid_query`.`updated_at` AS TIMESTAMP_LTZ(3))
FROM (
WITH `source_events` AS (SELECT * FROM `_env_flink-env1`.`default`.`land-customers__source_daefb6ddec18`)
SELECT
  `s`.`customer_id` AS `customer_id`,
  `s`.`name` AS `name`,
  `s`.`email` AS `email`,
  `s`.`address`.`country` AS `country`,
  CAST(`s`.`points` AS BIGINT) AS `points`,
  `s`.`updated_at` AS `updated_at`
FROM `source_events` AS `s`
) AS `fluid_query`;

