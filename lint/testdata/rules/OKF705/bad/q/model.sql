select * from {{ ref('orders') }} where y = {{ var('year') }}
