select * from {{ ref('orders') }} where d >= '{{ var("start") }}' and y = {{ var('year') }}
