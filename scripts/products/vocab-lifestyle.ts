import { leaf, type Leaf } from "./vocab-types.ts"

// Sports, Toys, Beauty, Fashion, Baby and Pets: real products, US list prices.
export const lifestyle: ReadonlyArray<Leaf> = [
  leaf("Sports & Outdoors", {
    sub: "Running > Running Shoes",
    gpc: "Apparel & Accessories > Shoes",
    weight: 6,
    sizing: "shoe",
    models: [
      ["Brooks", "Ghost 16", "Running Shoes", 139.95],
      ["Brooks", "Glycerin 21", "Running Shoes", 159.95],
      ["HOKA", "Clifton 9", "Running Shoes", 144.95],
      ["HOKA", "Bondi 8", "Running Shoes", 164.95],
      ["ASICS", "GEL-Kayano 31", "Running Shoes", 164.95],
      ["ASICS", "Novablast 4", "Running Shoes", 139.95],
      ["Nike", "Pegasus 41", "Road Running Shoes", 139.99],
      ["Nike", "Invincible 3", "Road Running Shoes", 189.99],
      ["adidas", "Adizero Boston 12", "Running Shoes", 159.99],
      ["adidas", "Ultraboost 5", "Running Shoes", 189.99],
      ["New Balance", "Fresh Foam X 1080v14", "Running Shoes", 164.99],
      ["Saucony", "Endorphin Speed 4", "Running Shoes", 169.95],
      ["On", "Cloudmonster 2", "Running Shoes", 179.99]
    ],
    colors: ["Black/White", "Blue/Orange", "Grey/Lime", "White/Pink", "Navy", "Triple Black"],
    features: [
      "soft nitrogen-infused foam",
      "breathable engineered mesh upper",
      "durable rubber outsole",
      "smooth heel-to-toe transitions",
      "stable support for overpronation"
    ],
    uses: ["marathon training", "daily runs", "long runs", "the gym", "walking", "5K races"],
    gifts: ["runners", "dad", "mom", "fitness fans"]
  }),
  leaf("Sports & Outdoors", {
    sub: "Yoga > Yoga Mats",
    gpc: "Sporting Goods > Exercise & Fitness > Yoga & Pilates > Yoga & Pilates Mats",
    weight: 3,
    models: [
      ["Manduka", "PRO", "Yoga Mat 6mm", 129],
      ["lululemon", "The Mat 5mm", "Made With FSC-Certified Rubber", 118],
      ["Gaiam", "Premium Print", "Yoga Mat 6mm", 29.98],
      ["JadeYoga", "Harmony", "Natural Rubber Yoga Mat", 99.95],
      ["Liforme", "Original", "Yoga Mat with AlignForMe", 149.95],
      ["Alo Yoga", "Warrior Mat", "Non-Slip Yoga Mat", 128]
    ],
    colors: ["Black", "Sage", "Lavender", "Ocean Blue", "Terracotta"],
    features: [
      "non-slip grip even when sweaty",
      "extra cushioning for knees",
      "free of PVC and toxic dyes",
      "lightweight with carry strap",
      "alignment markers"
    ],
    uses: ["hot yoga", "pilates", "home workouts", "beginners", "stretching after runs"],
    gifts: ["yogis", "mom", "wife", "girlfriend"]
  }),
  leaf("Sports & Outdoors", {
    sub: "Cycling > Bikes",
    gpc: "Sporting Goods > Outdoor Recreation > Cycling > Bicycles",
    weight: 2,
    models: [
      ["Trek", "FX 2 Disc", "Hybrid Bike", 899.99],
      ["Specialized", "Rockhopper Sport 29", "Mountain Bike", 899],
      ["Cannondale", "Quick 4", "Fitness Bike", 849.99],
      ["Giant", "Escape 3", "City Bike", 549],
      ["Schwinn", 'Koen 16"', "Kids' Bike with Training Wheels", 199.99, { a: "4-6" }],
      ["woom", "3", "16\" Lightweight Kids' Bike", 499, { a: "4-6" }],
      ["Rad Power Bikes", "RadCity 5 Plus", "Electric Commuter Bike", 1599]
    ],
    colors: ["Matte Black", "Blue", "Red", "Green", "Silver"],
    features: [
      "lightweight aluminium frame",
      "hydraulic disc brakes",
      "wide-range gearing for hills",
      "puncture-resistant tyres",
      "rack and fender mounts"
    ],
    uses: ["commuting", "fitness rides", "weekend trails", "kids learning to ride", "errands around town"],
    gifts: ["kids", "commuters", "teens"]
  }),
  leaf("Sports & Outdoors", {
    sub: "Camping > Tents",
    gpc: "Sporting Goods > Outdoor Recreation > Camping & Hiking > Tents",
    weight: 2,
    models: [
      ["REI Co-op", "Half Dome SL 2+", "Backpacking Tent", 349.95],
      ["Coleman", "Sundome", "4-Person Camping Tent", 99.99],
      ["Big Agnes", "Copper Spur HV UL2", "Ultralight Tent", 549.95],
      ["MSR", "Hubba Hubba 2", "Backpacking Tent", 549.95],
      ["Marmot", "Tungsten 4P", "Camping Tent", 299],
      ["Kelty", "Wireless 6", "Family Tent", 279.95]
    ],
    colors: ["Green", "Orange", "Grey"],
    features: [
      "sets up in under 10 minutes",
      "full-coverage waterproof rainfly",
      "two doors and two vestibules",
      "packs down small",
      "colour-coded poles"
    ],
    uses: ["backpacking", "family camping", "festivals", "car camping", "scout trips"],
    gifts: ["hikers", "outdoor lovers", "dad"]
  }),
  leaf("Sports & Outdoors", {
    sub: "Fitness > Strength & Recovery",
    gpc: "Sporting Goods > Exercise & Fitness",
    weight: 2,
    models: [
      ["Bowflex", "SelectTech 552", "Adjustable Dumbbells (Pair)", 429],
      ["TRX", "All-in-One", "Suspension Trainer", 169.95],
      ["Therabody", "Theragun Prime", "Percussive Massage Gun", 299],
      ["Hyperice", "Hypervolt Go 2", "Massage Gun", 149],
      ["Hydro Flask", "32 oz Wide Mouth", "Insulated Water Bottle", 44.95]
    ],
    colors: ["Black", "White", "Pacific", "Olive"],
    features: [
      "replaces 15 sets of weights",
      "quiet brushless motor",
      "fits in a gym bag",
      "keeps drinks cold for 24 hours",
      "app-guided routines"
    ],
    uses: ["home gyms", "post-run recovery", "strength training", "small spaces", "the gym"],
    gifts: ["fitness fans", "runners", "dad", "husband"]
  }),
  leaf("Toys & Games", {
    sub: "Building Toys > LEGO",
    gpc: "Toys & Games > Toys > Building Toys > Interlocking Blocks",
    weight: 5,
    models: [
      ["LEGO", "10281", "Icons Bonsai Tree Building Set", 49.99, { a: "18+" }],
      ["LEGO", "42143", "Technic Ferrari Daytona SP3 Building Set", 449.99, { a: "18+" }],
      ["LEGO", "42171", "Technic Mercedes-AMG F1 W14 E Performance", 219.99, { a: "18+" }],
      ["LEGO", "76419", "Harry Potter Hogwarts Castle and Grounds", 169.99, { a: "18+" }],
      ["LEGO", "75375", "Star Wars Millennium Falcon Building Set", 84.99, { a: "18+" }],
      ["LEGO", "21330", "Ideas Home Alone Building Set", 299.99, { a: "18+" }],
      ["LEGO", "31120", "Creator 3in1 Medieval Castle", 99.99, { a: "9+" }],
      ["LEGO", "60316", "City Police Station", 99.99, { a: "6+" }],
      ["LEGO", "10698", "Classic Large Creative Brick Box", 59.99, { a: "4+" }],
      ["LEGO", "10954", "DUPLO Number Train", 24.99, { a: "18 months+" }]
    ],
    colors: [],
    features: [
      "step-by-step building instructions",
      "compatible with all LEGO sets",
      "display-worthy finished model",
      "minifigures included",
      "hours of screen-free play"
    ],
    uses: ["creative play", "rainy days", "adult builders", "family building nights", "display shelves"],
    gifts: ["kids", "teens", "adults who love LEGO", "birthdays", "christmas"]
  }),
  leaf("Toys & Games", {
    sub: "Educational Toys > STEM & Science Kits",
    gpc: "Toys & Games > Toys > Educational Toys > Science & Exploration Sets",
    weight: 4,
    models: [
      ["National Geographic", "Mega Crystal Growing Lab", "Science Kit", 29.99, { a: "8-12" }],
      ["National Geographic", "Break Open 10 Premium Geodes", "Science Kit", 24.99, { a: "6+" }],
      ["Thames & Kosmos", "Chem C2000", "Chemistry Experiment Kit", 109.95, { a: "12+" }],
      ["Thames & Kosmos", "Kids First Botany", "Experimental Greenhouse Kit", 34.95, { a: "5-8" }],
      ["Elenco", "Snap Circuits Jr. SC-100", "Electronics Exploration Kit", 39.99, { a: "8-12" }],
      ["Sphero", "BOLT", "App-Enabled Coding Robot Ball", 179.99, { a: "8+" }],
      ["Osmo", "Genius Starter Kit", "for iPad, Learning Games", 99.99, { a: "6-10" }],
      ["Learning Resources", "Botley 2.0", "the Coding Robot", 89.99, { a: "5+" }],
      ["4M", "KidzLabs", "Tin Can Robot Kit", 14.99, { a: "8+" }]
    ],
    colors: [],
    features: [
      "over 30 hands-on experiments",
      "illustrated learning guide",
      "teaches coding without screens",
      "real lab equipment",
      "no batteries needed"
    ],
    uses: ["STEM learning", "homeschool science", "rainy-day projects", "curious kids", "science fair ideas"],
    gifts: ["kids who love science", "grandkids", "birthday parties", "christmas"]
  }),
  leaf("Toys & Games", {
    sub: "Games > Board Games",
    gpc: "Toys & Games > Games > Board Games",
    weight: 4,
    models: [
      ["Catan Studio", "CATAN", "Board Game, 3-4 Players", 54.99, { a: "10+" }],
      ["Days of Wonder", "Ticket to Ride", "Board Game, 2-5 Players", 54.99, { a: "8+" }],
      ["Z-Man Games", "Pandemic", "Cooperative Board Game", 44.99, { a: "8+" }],
      ["Stonemaier Games", "Wingspan", "Bird-Collection Board Game", 64.99, { a: "10+" }],
      ["Plan B Games", "Azul", "Tile-Laying Board Game", 39.99, { a: "8+" }],
      ["Czech Games Edition", "Codenames", "Party Word Game", 24.99, { a: "14+" }],
      ["Exploding Kittens", "Original Edition", "Card Game", 19.99, { a: "7+" }],
      ["Ravensburger", "Labyrinth", "Family Board Game", 24.99, { a: "7+" }],
      ["Ravensburger", "Disney Castle", "1000 Piece Jigsaw Puzzle", 19.99, { a: "12+" }],
      ["Hasbro Gaming", "Monopoly Classic", "Family Board Game", 21.99, { a: "8+" }],
      ["Wizards of the Coast", "Dungeons & Dragons", "Starter Set: Dragons of Stormwreck Isle", 19.99, { a: "12+" }],
      ["HABA", "My Very First Games – First Orchard", "Cooperative Game", 39.99, { a: "2+" }]
    ],
    colors: [],
    features: [
      "easy to learn in 15 minutes",
      "games last 30-60 minutes",
      "high-quality illustrated components",
      "cooperative and competitive modes",
      "great replay value"
    ],
    uses: ["family game night", "parties", "playing with teens", "couples", "holidays with grandparents"],
    gifts: ["families", "kids", "board game fans", "christmas", "secret santa"]
  }),
  leaf("Beauty", {
    sub: "Skincare",
    gpc: "Health & Beauty > Personal Care > Cosmetics > Skin Care",
    weight: 4,
    models: [
      ["CeraVe", "Hydrating", "Facial Cleanser, 16 oz", 17.99],
      ["La Roche-Posay", "Anthelios Melt-in Milk", "Sunscreen SPF 60, 5 oz", 37.99],
      ["The Ordinary", "Niacinamide 10% + Zinc 1%", "Serum, 30ml", 6],
      ["Clinique", "Moisture Surge 100H", "Auto-Replenishing Hydrator, 50ml", 52],
      ["Estée Lauder", "Advanced Night Repair", "Synchronized Multi-Recovery Serum, 50ml", 115],
      ["Drunk Elephant", "Protini", "Polypeptide Moisturizer, 50ml", 68],
      ["Paula's Choice", "Skin Perfecting 2% BHA", "Liquid Exfoliant, 118ml", 34]
    ],
    colors: [],
    features: [
      "fragrance-free",
      "dermatologist tested",
      "suitable for sensitive skin",
      "with hyaluronic acid and ceramides",
      "non-comedogenic"
    ],
    uses: ["dry skin", "oily skin", "sensitive skin", "daily sun protection", "night-time routines"],
    gifts: ["mom", "wife", "teens", "self-care", "mother's day"]
  }),
  leaf("Beauty", {
    sub: "Makeup & Hair",
    gpc: "Health & Beauty > Personal Care > Cosmetics",
    weight: 3,
    models: [
      ["Charlotte Tilbury", "Pillow Talk", "Matte Revolution Lipstick", 35],
      ["Fenty Beauty", "Pro Filt'r", "Soft Matte Longwear Foundation", 40],
      ["NARS", "Radiant Creamy", "Concealer", 32],
      ["Olaplex", "No. 3", "Hair Perfector, 100ml", 30],
      ["Dyson", "Airwrap", "Multi-Styler Complete Long", 599.99],
      ["ghd", "Platinum+", "Professional Hair Straightener", 279]
    ],
    colors: ["Pillow Talk", "Nude", "Berry", "Warm Sand", "Ceramic Pink"],
    features: [
      "long-wearing, transfer-resistant finish",
      "vegan and cruelty-free",
      "styles without extreme heat",
      "repairs damaged hair",
      "buildable coverage"
    ],
    uses: ["everyday makeup", "date nights", "weddings", "frizzy hair", "travel bags"],
    gifts: ["mom", "wife", "girlfriend", "teens", "valentine's day"]
  }),
  leaf("Fashion", {
    sub: "Shoes > Sneakers & Boots",
    gpc: "Apparel & Accessories > Shoes",
    weight: 5,
    sizing: "shoe",
    models: [
      ["Nike", "Air Force 1 '07", "Sneakers", 115],
      ["Nike", "Air Max 90", "Sneakers", 130],
      ["adidas", "Samba OG", "Shoes", 100],
      ["adidas", "Stan Smith", "Shoes", 100],
      ["New Balance", "574 Core", "Sneakers", 89.99],
      ["Converse", "Chuck Taylor All Star", "High Top Sneakers", 65],
      ["Vans", "Old Skool", "Skate Shoes", 70],
      ["Dr. Martens", "1460", "Smooth Leather Lace Up Boots", 170],
      ["UGG", "Classic Mini II", "Boots", 160],
      ["Birkenstock", "Arizona", "Soft Footbed Sandals", 145]
    ],
    colors: ["White", "Black", "Black/White", "Cream", "Chestnut", "Navy"],
    features: [
      "premium leather upper",
      "cushioned footbed",
      "durable rubber cupsole",
      "classic silhouette",
      "easy to clean"
    ],
    uses: ["everyday wear", "weekends", "college", "travel", "casual Fridays"],
    gifts: ["teens", "boyfriend", "girlfriend", "sneakerheads"]
  }),
  leaf("Fashion", {
    sub: "Clothing > Jackets",
    gpc: "Apparel & Accessories > Clothing > Outerwear > Coats & Jackets",
    weight: 4,
    sizing: "apparel",
    models: [
      ["The North Face", "1996 Retro Nuptse", "Jacket", 330],
      ["Patagonia", "Better Sweater", "Fleece Jacket", 149],
      ["Patagonia", "Nano Puff", "Insulated Jacket", 239],
      ["Arc'teryx", "Beta AR", "Waterproof GORE-TEX Jacket", 600],
      ["Columbia", "Watertight II", "Rain Jacket", 90],
      ["Barbour", "Beaufort", "Waxed Cotton Jacket", 449],
      ["Levi's", "Trucker", "Denim Jacket", 98],
      ["Helly Hansen", "Seven J", "Rain Jacket", 120]
    ],
    colors: ["Black", "Navy", "Olive", "Sage", "Red", "Sand"],
    features: [
      "waterproof and windproof",
      "packs into its own pocket",
      "recycled insulation",
      "adjustable hood",
      "zip hand pockets"
    ],
    uses: ["hiking", "rainy commutes", "skiing", "winter travel", "dog walks", "festivals"],
    gifts: ["dad", "husband", "hikers", "christmas"]
  }),
  leaf("Fashion", {
    sub: "Clothing > Activewear",
    gpc: "Apparel & Accessories > Clothing > Activewear",
    weight: 3,
    sizing: "apparel",
    models: [
      ["lululemon", "Align", 'High-Rise Pant 25"', 98],
      ["Nike", "Dri-FIT Challenger", '7" Running Shorts', 40],
      ["Under Armour", "Tech 2.0", "Short Sleeve T-Shirt", 25],
      ["adidas", "Tiro 24", "Training Pants", 50],
      ["Gymshark", "Vital Seamless", "Leggings", 54],
      ["Alo Yoga", "Airbrush", "High-Waist Legging", 118]
    ],
    colors: ["Black", "Heather Grey", "Navy", "Dusty Rose", "Forest Green"],
    features: ["sweat-wicking fabric", "four-way stretch", "hidden waistband pocket", "quick-drying", "squat-proof"],
    uses: ["the gym", "running", "yoga", "pilates", "lounging at home"],
    gifts: ["gym-goers", "runners", "wife", "teens"]
  }),
  leaf("Baby", {
    sub: "Gear & Nursery",
    gpc: "Baby & Toddler",
    weight: 3,
    models: [
      ["UPPAbaby", "Vista V2", "Convertible Stroller", 999.99],
      ["Graco", "Modes Pramette", "Travel System with Infant Car Seat", 329.99],
      ["Chicco", "KeyFit 35", "Infant Car Seat", 249.99],
      ["Nuna", "PIPA rx", "Infant Car Seat with RELX Base", 399.95],
      ["Nanit", "Pro", "Smart Baby Monitor with Wall Mount", 299.99],
      ["Ergobaby", "Omni 360", "All-Position Baby Carrier", 199],
      ["Philips Avent", "Natural", "Baby Bottle 4-Pack, 9 oz", 29.99],
      ["Fisher-Price", "Baby's First Blocks", "Shape Sorter Toy", 9.99, { a: "6 months+" }],
      ["Hatch", "Rest", "Sound Machine and Night Light", 69.99]
    ],
    colors: ["Charcoal", "Gregory Blue", "Sand", "Black", "Oat"],
    features: [
      "one-hand fold",
      "meets US and EU safety standards",
      "machine-washable fabrics",
      "breathing and sleep tracking",
      "grows with your child"
    ],
    uses: ["newborns", "new parents", "travel with a baby", "night feeds", "city walks"],
    gifts: ["a baby shower", "new parents", "expecting mothers"]
  }),
  leaf("Pet Supplies", {
    sub: "Dogs & Cats",
    gpc: "Animals & Pet Supplies > Pet Supplies",
    weight: 3,
    models: [
      ["Purina Pro Plan", "Large Breed", "Adult Dry Dog Food, 34 lb", 78.98],
      ["Hill's Science Diet", "Adult 7+", "Dry Cat Food, 15.5 lb", 62.99],
      ["Blue Buffalo", "Life Protection Formula", "Adult Dry Dog Food, 30 lb", 64.98],
      ["KONG", "Classic", "Dog Toy, Large", 14.99],
      ["Furbo", "360°", "Dog Camera with Treat Tossing", 210],
      ["Whisker", "Litter-Robot 4", "Self-Cleaning Litter Box", 699],
      ["PetSafe", "Drinkwell Platinum", "Pet Fountain, 168 oz", 49.95],
      ["Ruffwear", "Front Range", "Dog Harness", 49.95],
      ["Chuckit!", "Ultra Ball", "Medium 2-Pack", 7.99]
    ],
    colors: ["Red", "Blue", "Black", "Green"],
    features: [
      "vet recommended",
      "real meat as the first ingredient",
      "durable natural rubber",
      "app alerts when your pet barks",
      "easy to clean"
    ],
    uses: ["puppies", "senior dogs", "indoor cats", "large breeds", "busy pet parents"],
    gifts: ["dog lovers", "cat owners", "new pet parents"]
  })
]
