import { leaf, type Leaf } from "./vocab-types.ts"

// Real products with launch-era US list prices; the generator varies them
// per store and converts them to GBP/EUR.
const HEADPHONES = "Electronics > Audio > Audio Components > Headphones & Headsets > Headphones"
const STORAGE: ReadonlyArray<readonly [string, number]> = [
  ["128GB", 0],
  ["256GB", 100],
  ["512GB", 300]
]
const TV_SIZES: ReadonlyArray<readonly [string, number]> = [
  ["55", 0],
  ["65", 700],
  ["77", 1800]
]
const RAM: ReadonlyArray<readonly [string, number]> = [
  ["16GB RAM, 512GB SSD", 0],
  ["32GB RAM, 1TB SSD", 400]
]

export const electronics: ReadonlyArray<Leaf> = [
  leaf("Electronics", {
    sub: "Audio > Headphones",
    gpc: HEADPHONES,
    weight: 6,
    models: [
      ["Sony", "WH-1000XM5", "Wireless Noise Cancelling Headphones", 399.99],
      ["Sony", "WH-CH720N", "Wireless Noise Cancelling Headphones", 149.99],
      ["Bose", "QuietComfort Ultra", "Wireless Noise Cancelling Headphones", 429],
      ["Bose", "QuietComfort", "Wireless Headphones", 349],
      ["Apple", "AirPods Max", "Over-Ear Headphones with USB-C", 549],
      ["Sennheiser", "Momentum 4 Wireless", "Headphones with Adaptive Noise Cancellation", 379.95],
      ["JBL", "Tune 770NC", "Wireless Over-Ear Headphones", 129.95],
      ["Anker", "Soundcore Space Q45", "Noise Cancelling Headphones", 149.99],
      ["Beats", "Studio Pro", "Wireless Headphones", 349.99],
      ["Jabra", "Evolve2 65", "Wireless Headset for Calls", 259],
      ["Audio-Technica", "ATH-M50x", "Professional Studio Monitor Headphones", 169]
    ],
    colors: ["Black", "Silver", "White", "Midnight Blue", "Sandstone"],
    features: [
      "up to 30 hours of battery life",
      "industry-leading noise cancelling",
      "multipoint Bluetooth pairing",
      "quick charge: 3 minutes for 3 hours of playback",
      "soft memory-foam ear cushions",
      "foldable design with travel case",
      "clear hands-free calls with beamforming mics"
    ],
    uses: ["travel", "long flights", "commuting", "working from home", "studying", "the office"],
    gifts: ["dad", "mom", "teens", "music lovers", "frequent travellers"]
  }),
  leaf("Electronics", {
    sub: "Audio > Earbuds",
    gpc: HEADPHONES,
    weight: 6,
    models: [
      ["Sony", "WF-1000XM5", "Wireless Noise Cancelling Earbuds", 299.99],
      ["Apple", "AirPods Pro 2", "Wireless Earbuds with USB-C Charging Case", 249],
      ["Samsung", "Galaxy Buds3 Pro", "True Wireless Earbuds", 249.99],
      ["Bose", "QuietComfort Ultra", "Wireless Earbuds", 299],
      ["Jabra", "Elite 8 Active", "Sports Earbuds", 199.99],
      ["JBL", "Endurance Peak 3", "Waterproof Sport Earbuds", 99.95],
      ["Anker", "Soundcore Liberty 4 NC", "Wireless Earbuds", 99.99],
      ["Beats", "Powerbeats Pro 2", "Wireless Workout Earbuds", 249.99],
      ["Sennheiser", "Momentum True Wireless 4", "Earbuds", 299.95],
      ["Shokz", "OpenRun Pro 2", "Open-Ear Bone Conduction Headphones", 179.95]
    ],
    colors: ["Black", "White", "Silver", "Navy", "Coral"],
    features: [
      "IP67 sweat and water resistance",
      "secure-fit ear wings",
      "active noise cancelling",
      "up to 8 hours per charge, 24 with the case",
      "wireless charging case",
      "transparency mode to hear traffic"
    ],
    uses: ["running", "the gym", "workouts", "cycling", "commuting", "phone calls"],
    gifts: ["runners", "teens", "gym-goers", "students"]
  }),
  leaf("Electronics", {
    sub: "Audio > Speakers",
    gpc: "Electronics > Audio > Audio Components > Speakers",
    weight: 4,
    models: [
      ["JBL", "Flip 6", "Portable Bluetooth Speaker", 129.95],
      ["JBL", "Charge 5", "Waterproof Bluetooth Speaker", 179.95],
      ["Bose", "SoundLink Flex", "Bluetooth Speaker", 149],
      ["Sonos", "Era 100", "Smart Speaker", 249],
      ["Sonos", "Move 2", "Portable Smart Speaker", 449],
      ["Ultimate Ears", "BOOM 4", "Waterproof Bluetooth Speaker", 149.99],
      ["Anker", "Soundcore Motion 300", "Wireless Hi-Res Speaker", 79.99],
      ["Marshall", "Emberton II", "Portable Bluetooth Speaker", 169.99],
      ["Sony", "ULT Field 1", "Wireless Portable Speaker", 129.99]
    ],
    colors: ["Black", "Blue", "Red", "Teal", "White"],
    features: [
      "IP67 waterproof and dustproof",
      "up to 20 hours of playtime",
      "pairs with a second speaker for stereo",
      "deep bass from a compact body",
      "built-in power bank"
    ],
    uses: ["the beach", "camping", "pool parties", "the backyard", "picnics", "the shower"],
    gifts: ["teens", "dad", "college students", "outdoor lovers"]
  }),
  leaf("Electronics", {
    sub: "TVs",
    gpc: "Electronics > Video > Televisions",
    weight: 5,
    models: [
      ["LG", "OLED{v}C4PUA", '{v}" Class C4 Series OLED evo 4K Smart TV', 1299.99, { v: TV_SIZES }],
      ["Samsung", "QN{v}QN90D", '{v}" Class Neo QLED 4K Smart TV', 1199.99, { v: TV_SIZES }],
      ["Samsung", "QN{v}S90D", '{v}" Class OLED S90D 4K Smart TV', 1399.99, { v: TV_SIZES }],
      ["Sony", "K-{v}XR80", '{v}" BRAVIA 8 OLED 4K HDR Google TV', 1399.99, { v: TV_SIZES }],
      ["TCL", "{v}QM751G", '{v}" QM7 QD-Mini LED 4K Google TV', 799.99, { v: TV_SIZES }],
      ["Hisense", "{v}U8N", '{v}" U8 Series Mini-LED ULED 4K Google TV', 899.99, { v: TV_SIZES }]
    ],
    colors: [],
    features: [
      "Dolby Vision and HDR10+",
      "120Hz refresh rate with VRR for consoles",
      "Dolby Atmos sound",
      "built-in Chromecast and AirPlay",
      "hands-free voice control",
      "filmmaker mode"
    ],
    uses: ["movie nights", "watching sports", "console gaming", "the living room", "streaming"],
    gifts: ["the family", "sports fans", "gamers"]
  }),
  leaf("Electronics", {
    sub: "Computers > Laptops",
    gpc: "Electronics > Computers > Laptops",
    weight: 6,
    models: [
      [
        "Apple",
        'MacBook Air 13"',
        "Laptop with M3 chip, {v}",
        1099,
        {
          v: [
            ["16GB RAM, 256GB SSD", 0],
            ["16GB RAM, 512GB SSD", 200],
            ["24GB RAM, 512GB SSD", 400]
          ]
        }
      ],
      [
        "Apple",
        'MacBook Pro 14"',
        "Laptop with M4 Pro chip, {v}",
        1999,
        {
          v: [
            ["24GB RAM, 512GB SSD", 0],
            ["24GB RAM, 1TB SSD", 400]
          ]
        }
      ],
      ["Dell", "XPS 13 9350", '13.4" Laptop, Intel Core Ultra 7, {v}', 1299.99, { v: RAM }],
      ["Dell", "Inspiron 15 3530", '15.6" Laptop, Intel Core i5, 8GB RAM, 512GB SSD', 549.99],
      ["Lenovo", "ThinkPad X1 Carbon Gen 12", '14" Business Laptop, {v}', 1799, { v: RAM }],
      ["Lenovo", "IdeaPad Slim 5", '16" Laptop, AMD Ryzen 7, {v}', 749.99, { v: RAM }],
      ["HP", "Spectre x360", '14" 2-in-1 OLED Laptop, {v}', 1449.99, { v: RAM }],
      ["HP", "Pavilion 15", '15.6" Laptop, Intel Core i7, 16GB RAM, 512GB SSD', 629.99],
      ["ASUS", "ROG Zephyrus G14", '14" OLED Gaming Laptop, RTX 4070, {v}', 1599.99, { v: RAM }],
      ["ASUS", "Zenbook 14 OLED", '14" Laptop, Intel Core Ultra 7, {v}', 899.99, { v: RAM }],
      ["Acer", "Aspire 5", '15.6" Laptop, Intel Core i5, 8GB RAM, 512GB SSD', 499.99],
      ["Acer", "Swift Go 14", '14" OLED Laptop, Intel Core Ultra 5, {v}', 699.99, { v: RAM }],
      ["Microsoft", "Surface Laptop 7", '13.8" Copilot+ PC, Snapdragon X Elite, {v}', 999.99, { v: RAM }]
    ],
    colors: ["Silver", "Space Gray", "Midnight", "Platinum"],
    features: [
      "all-day battery life",
      "backlit keyboard",
      "Wi-Fi 7",
      "1080p webcam with privacy shutter",
      "Thunderbolt 4 ports",
      "fast SSD storage",
      "lightweight aluminium chassis"
    ],
    uses: ["college students", "working from home", "business travel", "video editing", "gaming", "homework"],
    gifts: ["graduates", "students", "teens"]
  }),
  leaf("Electronics", {
    sub: "Phones",
    gpc: "Electronics > Communications > Telephony > Mobile Phones",
    weight: 4,
    models: [
      ["Apple", "iPhone 16 Pro", "{v} Unlocked Smartphone", 999, { v: STORAGE }],
      ["Apple", "iPhone 16", "{v} Unlocked Smartphone", 799, { v: STORAGE }],
      [
        "Samsung",
        "Galaxy S24 Ultra",
        "{v} Unlocked Android Smartphone",
        1299.99,
        {
          v: [
            ["256GB", 0],
            ["512GB", 120]
          ]
        }
      ],
      ["Samsung", "Galaxy A55 5G", "128GB Unlocked Android Smartphone", 449.99],
      ["Google", "Pixel 9 Pro", "{v} Unlocked Android Smartphone", 999, { v: STORAGE }],
      ["Google", "Pixel 8a", "128GB Unlocked Android Smartphone", 499],
      ["Motorola", "moto g power 5G (2024)", "128GB Unlocked Smartphone", 299.99],
      [
        "OnePlus",
        "12",
        "{v} Unlocked Android Smartphone",
        799.99,
        {
          v: [
            ["256GB", 0],
            ["512GB", 100]
          ]
        }
      ]
    ],
    colors: ["Black", "Titanium", "Obsidian", "Porcelain", "Mint", "Cobalt Violet"],
    features: [
      "triple camera with 5x optical zoom",
      "all-day battery",
      '6.7" OLED display',
      "5G connectivity",
      "7 years of OS updates",
      "fast wireless charging"
    ],
    uses: ["photography", "travel", "gaming on the go", "video calls"],
    gifts: ["teens", "mom", "dad", "graduates"]
  }),
  leaf("Electronics", {
    sub: "Tablets",
    gpc: "Electronics > Computers > Tablet Computers",
    weight: 3,
    models: [
      ["Apple", 'iPad Air 11" (M2)', "Wi-Fi Tablet, {v}", 599, { v: STORAGE }],
      ["Apple", "iPad (10th generation)", '10.9" Wi-Fi Tablet, 64GB', 349],
      ["Samsung", "Galaxy Tab S9 FE", '10.9" Android Tablet with S Pen, 128GB', 449.99],
      ["Amazon", "Fire HD 10 Kids Pro", "Tablet for Kids with Slim Case, 32GB", 189.99, { a: "6-12" }],
      ["Lenovo", "Tab P12", '12.7" Android Tablet with Pen, 128GB', 349.99],
      ["Microsoft", "Surface Pro 11", '13" Copilot+ 2-in-1 Tablet, 256GB', 999.99]
    ],
    colors: ["Space Gray", "Blue", "Silver", "Pink", "Starlight"],
    features: [
      "all-day battery",
      "works with a stylus for notes and drawing",
      "stereo speakers",
      "front camera for video calls",
      "parental controls"
    ],
    uses: ["drawing", "reading", "streaming", "homework", "travel", "note-taking in class"],
    gifts: ["kids", "students", "grandparents"]
  }),
  leaf("Electronics", {
    sub: "Cameras",
    gpc: "Cameras & Optics > Cameras > Digital Cameras",
    weight: 3,
    models: [
      ["Sony", "Alpha a7 IV", "Full-Frame Mirrorless Camera Body", 2499.99],
      ["Canon", "EOS R6 Mark II", "Full-Frame Mirrorless Camera Body", 2499],
      ["Canon", "EOS R50", "Mirrorless Camera with RF-S 18-45mm Lens", 799.99],
      ["Nikon", "Z f", "Full-Frame Mirrorless Camera Body", 1999.95],
      ["Fujifilm", "X-T5", "Mirrorless Camera Body", 1699],
      ["GoPro", "HERO13 Black", "Waterproof Action Camera", 399.99],
      ["DJI", "Osmo Action 5 Pro", "Action Camera", 349],
      ["DJI", "Osmo Pocket 3", "Gimbal Vlogging Camera", 519],
      ["Insta360", "X4", "8K 360 Action Camera", 499.99]
    ],
    colors: ["Black", "Silver"],
    features: [
      "4K 60p video",
      "in-body image stabilization",
      "fast hybrid autofocus with eye tracking",
      "weather-sealed body",
      "flip-out touchscreen"
    ],
    uses: ["vlogging", "travel photography", "hiking", "family trips", "wildlife photography", "skiing"],
    gifts: ["photographers", "content creators", "travellers"]
  }),
  leaf("Electronics", {
    sub: "Smart Home",
    gpc: "Electronics",
    weight: 3,
    models: [
      ["Google", "Nest Learning Thermostat", "(4th gen) Smart Thermostat", 279.99],
      ["Amazon", "Echo Dot (5th Gen)", "Smart Speaker with Alexa", 49.99],
      ["Ring", "Battery Video Doorbell Plus", "Head-to-Toe HD+ Video Doorbell", 179.99],
      ["Philips", "Hue White and Color Ambiance", "A19 Smart Bulb Starter Kit (3-Pack)", 199.99],
      ["Arlo", "Pro 5S 2K", "Spotlight Wireless Security Camera", 249.99],
      ["eufy", "Security Video Doorbell E340", "Dual Camera Doorbell", 179.99],
      ["TP-Link", "Kasa Smart Plug Mini", "EP10 Wi-Fi Smart Plug (4-Pack)", 29.99],
      ["ecobee", "Smart Thermostat Premium", "with Smart Sensor and Air Quality Monitor", 249.99]
    ],
    colors: ["White", "Charcoal", "Black"],
    features: [
      "works with Alexa, Google Home and Apple Home",
      "easy DIY installation",
      "energy-saving schedules",
      "motion alerts on your phone",
      "no subscription required for basics"
    ],
    uses: ["home security", "saving energy", "renters", "new homeowners", "elderly parents"],
    gifts: ["new homeowners", "dad", "tech lovers"]
  }),
  leaf("Electronics", {
    sub: "Gaming > Consoles",
    gpc: "Electronics > Video Game Consoles",
    weight: 3,
    models: [
      ["Sony", "PlayStation 5 Slim", "Console (Digital Edition)", 449.99],
      ["Sony", "PlayStation 5 Pro", "Console 2TB", 699.99],
      ["Nintendo", "Switch OLED Model", "Console with White Joy-Con", 349.99],
      ["Microsoft", "Xbox Series X", "1TB Console", 499.99],
      ["Microsoft", "Xbox Series S", "512GB Console", 299.99],
      ["Meta", "Quest 3", "512GB Mixed Reality VR Headset", 499.99]
    ],
    colors: [],
    features: [
      "4K gaming at up to 120fps",
      "ultra-fast SSD",
      "backward compatible with thousands of games",
      "play at home or on the go",
      "online multiplayer"
    ],
    uses: ["family game night", "teens", "couch co-op", "holiday gaming"],
    gifts: ["kids 8-12", "teens", "gamers", "the whole family"]
  }),
  leaf("Electronics", {
    sub: "Gaming > Accessories",
    gpc: "Electronics > Video Game Console Accessories",
    weight: 3,
    models: [
      ["Logitech", "G PRO X SUPERLIGHT 2", "Wireless Gaming Mouse", 159.99],
      ["Razer", "BlackShark V2 Pro", "Wireless Gaming Headset", 199.99],
      ["SteelSeries", "Arctis Nova 7", "Wireless Gaming Headset", 179.99],
      ["Sony", "DualSense", "Wireless Controller for PS5", 74.99],
      ["Nintendo", "Switch Pro Controller", "Wireless Controller", 69.99],
      ["Xbox", "Wireless Controller", "Carbon Black", 59.99],
      ["Razer", "Huntsman V3 Pro", "Analog Optical Gaming Keyboard", 249.99]
    ],
    colors: ["Black", "White", "Midnight Black", "Cosmic Red"],
    features: [
      "low-latency 2.4GHz wireless",
      "up to 38 hours of battery",
      "detachable noise-cancelling mic",
      "customisable buttons",
      "haptic feedback"
    ],
    uses: ["competitive gaming", "streaming", "long gaming sessions", "esports"],
    gifts: ["gamers", "teens", "boyfriend", "girlfriend"]
  }),
  leaf("Electronics", {
    sub: "Wearables",
    gpc: "Electronics",
    weight: 3,
    models: [
      ["Garmin", "Forerunner 265", "Running Smartwatch with AMOLED Display", 449.99],
      ["Garmin", "Venu 3", "GPS Fitness Smartwatch", 449.99],
      ["Apple", "Watch Series 10", "GPS 42mm Smartwatch with Sport Band", 399],
      ["Samsung", "Galaxy Watch7", "40mm Bluetooth Smartwatch", 299.99],
      ["Fitbit", "Charge 6", "Fitness Tracker with Heart Rate", 159.95],
      ["Polar", "Pacer Pro", "GPS Running Watch", 299.95],
      ["COROS", "PACE 3", "GPS Sport Watch", 229]
    ],
    colors: ["Black", "Whitestone", "Aqua", "Silver", "Rose Gold"],
    features: [
      "built-in GPS",
      "heart-rate and sleep tracking",
      "up to 13 days of battery",
      "training readiness and recovery advice",
      "water resistant to 50 m",
      "contactless payments"
    ],
    uses: ["running", "marathon training", "swimming", "cycling", "sleep tracking", "the gym"],
    gifts: ["runners", "mom", "dad", "fitness fans"]
  })
]
